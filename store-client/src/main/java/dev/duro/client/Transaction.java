package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * An update transaction (S-DUR Algorithm 3). Reads go to any replica of the key's partition; the first read at
 * a partition fixes the transaction's snapshot there. Writes are buffered and sent at commit, where every
 * partition touched certifies the transaction. Not thread-safe; close it (or commit it) when done.
 *
 * <p>Its life, one way only:
 *
 * <pre>
 *   OPEN ──commit──▶ COMMITTING ──outcome──▶ COMMITTED | ABORTED
 *     │                  │  ▲
 *     │                  │  └─ no coordinator answered, or one refused: commit() again resends the same request
 *     │                  └─ the servers no longer retain the outcome ──▶ OUTCOME_LOST
 *     └──rollback──▶ ROLLED_BACK
 * </pre>
 *
 * Only an open transaction reads and writes. From the moment its commit starts it is frozen: the request (its
 * participants with their snapshots, read sets and write sets) is computed once, and every later send, to
 * another coordinator or from another {@link #commit()}, carries exactly that content under the same id (see
 * {@link FrozenCommit} for why). Reads are frozen too: a read answered now would not be certified with the
 * transaction, so its value could contradict what the transaction committed.
 *
 * <p>This class is the API over the parts that do the work: {@link CommitProtocol} keeps the state above, the
 * {@link Footprint} of what the transaction touched and the commit, under the one lock that freezes them;
 * {@link SnapshotReads} reads at the snapshots the transaction fixed; {@link FrozenCommit} sends the frozen
 * request to coordinators.
 */
public final class Transaction implements AutoCloseable, KeyReader {
    private final DuroClient client;
    private final TxId tid;
    private final CommitProtocol protocol;
    private final SnapshotReads reads;

    Transaction(DuroClient client, TxId tid) {
        this.client = client;
        this.tid = tid;
        this.protocol = new CommitProtocol(client, tid);
        this.reads = new SnapshotReads(client, tid, protocol);
    }

    public TxId id() {
        return tid;
    }

    // ---- reads ----

    /** Reads {@code key}: this transaction's own write if any, else the cluster at its snapshot. */
    @Override
    public CompletableFuture<Bytes> getAsync(Bytes key) {
        protocol.requireOpen(CommitProtocol.READS_FROZEN);
        client.limits().checkKey(key);
        Write written = protocol.written(key);
        if (written != null) {
            return CompletableFuture.completedFuture(written.value());
        }
        countKeys(List.of(key));
        int partition = client.cluster().partitionOf(key);
        return reads.read(partition, key).thenApply(value -> {
            protocol.recordReads(List.of(key), partition);
            return value;
        });
    }

    /**
     * Reads {@code keys}: this transaction's own writes where it has any, else the cluster at its snapshots, one
     * request per partition (and per {@value MultiReads#KEYS_PER_REQUEST_MAX} keys). Where no read has fixed a
     * partition's snapshot yet, its first request fixes it and the others go out once it has, at that snapshot.
     */
    @Override
    public CompletableFuture<Map<Bytes, Bytes>> getAllAsync(Collection<Bytes> keys) {
        protocol.requireOpen(CommitProtocol.READS_FROZEN);
        List<Bytes> order = MultiReads.distinct(keys, client.limits());
        Map<Bytes, Bytes> own = new HashMap<>();
        List<Bytes> fromCluster = new ArrayList<>();
        for (Bytes key : order) {
            Write written = protocol.written(key);
            if (written != null) {
                own.put(key, written.value());
            } else {
                fromCluster.add(key);
            }
        }
        countKeys(fromCluster);
        List<MultiReads.Group> groups = new ArrayList<>();
        MultiReads.requests(fromCluster, client.cluster()::partitionOf).forEach((partition, keyGroups) -> {
            CompletableFuture<?> snapshotFixed =
                    protocol.snapshotAt(partition) == null ? null : CompletableFuture.completedFuture(null);
            for (List<Bytes> group : keyGroups) {
                CompletableFuture<List<VersionedValue>> values = (snapshotFixed == null
                                ? reads.readAll(partition, group)
                                : snapshotFixed.thenCompose(fixed -> reads.readAll(partition, group)))
                        .thenApply(read -> {
                            protocol.recordReads(group, partition);
                            return read;
                        });
                if (snapshotFixed == null) {
                    snapshotFixed = values;
                }
                groups.add(new MultiReads.Group(group, values));
            }
        });
        return MultiReads.collect(order, own, groups);
    }

    @Override
    public List<KeyValue> scan(KeyRange range, int limit, ScanOrder order) {
        protocol.requireOpen(CommitProtocol.READS_FROZEN);
        checkRange(range, client.limits());
        boolean descending = order == ScanOrder.DESCENDING;
        List<Write> own = protocol.writesIn(range);
        RangeScan.Result result = RangeScan.run(
                client.cluster(),
                range,
                limit,
                descending,
                own,
                (partition, left, wanted) -> reads.scan(partition, left, wanted, descending));
        protocol.recordScans(result.observed());
        return result.entries();
    }

    /** Checks a scan's range against the key limit before anything is sent. */
    static void checkRange(KeyRange range, Limits limits) {
        limits.checkKey(range.from());
        if (range.to() != null) {
            limits.checkKey(range.to());
        }
    }

    // ---- writes ----

    public void put(Bytes key, Bytes value) {
        protocol.requireOpen(CommitProtocol.WRITES_FROZEN);
        client.limits().checkKey(key);
        client.limits().checkValue(value);
        buffer(Write.put(key, value));
    }

    public void put(String key, String value) {
        put(Bytes.utf8(key), Bytes.utf8(value));
    }

    public void putLong(String key, long value) {
        put(key, Long.toString(value));
    }

    public void delete(Bytes key) {
        protocol.requireOpen(CommitProtocol.WRITES_FROZEN);
        client.limits().checkKey(key);
        buffer(Write.delete(key));
    }

    public void delete(String key) {
        delete(Bytes.utf8(key));
    }

    private void buffer(Write write) {
        int partition = client.cluster().partitionOf(write.key());
        protocol.buffer(write, partition, client.limits());
    }

    /** Checks the transaction's key limit before it reads {@code keys}; keys it has already count once. */
    private void countKeys(List<Bytes> keys) {
        protocol.checkMoreKeys(keys, client.limits());
    }

    // ---- termination ----

    /**
     * Commits: every partition touched certifies the transaction. The first call freezes the transaction (see the
     * class documentation); a later call resends the same request under the same id until the outcome is known,
     * returns the result again once committed, and throws the same {@link TransactionAbortedException} again once
     * aborted.
     *
     * @throws TransactionAbortedException if certification aborted it
     * @throws UnavailableException if no coordinator answered or the outcome is no longer retained; if
     *     {@link UnavailableException#outcomeUnknown()}, it may have committed. Committing again is safe and
     *     resends the same request; when the servers no longer retain the outcome it is final, and committing
     *     again throws the same answer without asking them
     */
    public CommitResult commit() {
        return join(commitAsync());
    }

    public CompletableFuture<CommitResult> commitAsync() {
        return protocol.commitAsync(reads);
    }

    /**
     * Whether a commit request may have left this client: the transaction may have committed unless an outcome
     * says otherwise. {@link DuroClient#transact} runs a body again only when this is false or it aborted.
     */
    boolean commitSent() {
        return protocol.commitSent();
    }

    /** The servers no longer retain this transaction's outcome: no resend can learn it. */
    boolean outcomeLost() {
        return protocol.outcomeLost();
    }

    /** The result of a successful commit. */
    public CommitResult result() {
        return protocol.result();
    }

    /**
     * Abandons an open transaction: nothing was sent, nothing is kept. Does nothing once it has ended.
     *
     * @throws IllegalStateException while its commit is under way or of unknown outcome: it may commit, or have
     *     committed, whatever this client does now
     */
    public void rollback() {
        protocol.rollback();
    }

    /** Rolls back an open transaction; unlike {@link #rollback()}, never throws, so it suits try-with-resources. */
    @Override
    public void close() {
        protocol.close();
    }

    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof DuroException duro) {
                throw duro;
            }
            if (e.getCause() instanceof IllegalStateException misuse) {
                throw misuse;
            }
            throw new UnavailableException(String.valueOf(e.getCause()), true);
        }
    }
}
