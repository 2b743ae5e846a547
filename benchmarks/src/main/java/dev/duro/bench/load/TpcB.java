package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * TPC-B as P-Store runs it (§5): one transaction type that deposits or withdraws {@code delta} through a teller,
 * reading and updating the balances of the account, the teller and the branch in which the account resides, and
 * inserting a history record. As in P-Store, each branch has 10 tellers and 100 accounts, stored in the branch's
 * partition; a transaction is global when the teller is in a different partition from the account and its
 * branch, which TPC-B makes about 15% of transactions ({@code --global}, default 15). A global transaction spans
 * exactly two partitions, so {@code --global-partitions} does not apply; the choice of branch, teller and account
 * is uniform, as in TPC-B, so {@code --zipf} does not apply either.
 *
 * <p>Entities are ranks of {@link KeySpace#key}: in each partition, {@code B} branches first, then their 10·B
 * tellers, then their 100·B accounts, and the other half of the keys (at least) as history slots. {@code B} is
 * half the keys per partition over 111 (450 branches per partition with the default 100,000 keys; P-Store had
 * 3,600 in all). A history insert writes a random slot of the teller's partition without reading it, so history
 * records overwrite old ones and two transfers conflict there only if they pick the same slot at once. Balances
 * are 8-byte big-endian longs; a balance never written reads as 0, so runs need no load phase.
 */
final class TpcB {
    static final int TELLERS_PER_BRANCH = 10;
    static final int ACCOUNTS_PER_BRANCH = 100;
    static final int DELTA_MAX = 999_999;
    static final int HISTORY_BYTES = 50;
    private static final int RANKS_PER_BRANCH = 1 + TELLERS_PER_BRANCH + ACCOUNTS_PER_BRANCH;

    private TpcB() {}

    /** Branches per partition for {@code keysPerPartition} keys: half the keys hold branches and their entities. */
    static int branchesPerPartition(int keysPerPartition) {
        if (keysPerPartition < 2 * RANKS_PER_BRANCH) {
            throw new IllegalArgumentException("tpcb needs --keys-per-partition >= " + 2 * RANKS_PER_BRANCH);
        }
        return keysPerPartition / 2 / RANKS_PER_BRANCH;
    }

    static int branchRank(int branch) {
        return branch;
    }

    static int tellerRank(int branches, int branch, int teller) {
        return branches + branch * TELLERS_PER_BRANCH + teller;
    }

    static int accountRank(int branches, int branch, int account) {
        return branches * (1 + TELLERS_PER_BRANCH) + branch * ACCOUNTS_PER_BRANCH + account;
    }

    static int firstHistoryRank(int branches) {
        return branches * RANKS_PER_BRANCH;
    }

    static TxSource source(KeySpace keys, LoadOptions options, SplittableRandom random) {
        int branches = branchesPerPartition(keys.keysPerPartition());
        int historySlots = keys.keysPerPartition() - firstHistoryRank(branches);
        return () -> {
            int tellerPartition = random.nextInt(keys.partitions());
            int tellerBranch = random.nextInt(branches);
            Bytes teller =
                    keys.key(tellerPartition, tellerRank(branches, tellerBranch, random.nextInt(TELLERS_PER_BRANCH)));
            boolean global = keys.partitions() >= 2 && random.nextInt(100) < options.globalPercent();
            int accountPartition = global
                    ? ReadWriteTransactions.otherPartition(keys.partitions(), tellerPartition, random)
                    : tellerPartition;
            int accountBranch = global ? random.nextInt(branches) : tellerBranch;
            Bytes account = keys.key(
                    accountPartition, accountRank(branches, accountBranch, random.nextInt(ACCOUNTS_PER_BRANCH)));
            Bytes branch = keys.key(accountPartition, branchRank(accountBranch));
            Bytes history = keys.key(tellerPartition, firstHistoryRank(branches) + random.nextInt(historySlots));
            long delta = random.nextLong(-DELTA_MAX, DELTA_MAX + 1L);
            return new Transfer(global ? TxKind.GLOBAL : TxKind.LOCAL, account, teller, branch, history, delta);
        };
    }

    /** A balance as stored; null (never written) reads as 0. */
    static long balance(Bytes value) {
        if (value == null) {
            return 0;
        }
        if (value.size() != Long.BYTES) {
            throw new IllegalStateException("not a balance: " + value.size() + " bytes");
        }
        return ByteBuffer.wrap(value.unsafeArray()).getLong();
    }

    static Bytes encodeBalance(long balance) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(balance).array());
    }

    /** Reads account, teller and branch (in that order); adds {@code delta} to each; writes a history record. */
    record Transfer(TxKind kind, Bytes account, Bytes teller, Bytes branch, Bytes history, long delta)
            implements TxPlan {
        @Override
        public List<Bytes> reads() {
            return List.of(account, teller, branch);
        }

        @Override
        public Map<Bytes, Bytes> writes(List<Bytes> values) {
            Map<Bytes, Bytes> writes = new LinkedHashMap<>();
            writes.put(account, encodeBalance(balance(values.get(0)) + delta));
            writes.put(teller, encodeBalance(balance(values.get(1)) + delta));
            writes.put(branch, encodeBalance(balance(values.get(2)) + delta));
            writes.put(history, historyRecord());
            return writes;
        }

        /** TPC-B's history row: account, teller, branch, delta, padded to 50 bytes. */
        Bytes historyRecord() {
            return Bytes.wrap(ByteBuffer.allocate(HISTORY_BYTES)
                    .put(account.unsafeArray())
                    .put(teller.unsafeArray())
                    .put(branch.unsafeArray())
                    .putLong(delta)
                    .array());
        }
    }
}
