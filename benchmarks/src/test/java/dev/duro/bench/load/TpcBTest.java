package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TpcBTest {
    private final LoadOptions options = Fixtures.options("--workload", "tpcb");
    private final KeySpace keys = Fixtures.keys(options);
    private final int branches = TpcB.branchesPerPartition(keys.keysPerPartition());
    private final Map<Bytes, Integer> rankOf = new HashMap<>();

    TpcBTest() {
        for (int partition = 0; partition < keys.partitions(); partition++) {
            for (int rank = 0; rank < keys.keysPerPartition(); rank++) {
                rankOf.put(keys.key(partition, rank), rank);
            }
        }
    }

    @Test
    void fifteenPercentOfTransfersUseATellerOfAnotherPartition() {
        List<TxPlan> plans = Fixtures.plans(options);
        assertEquals(15, Fixtures.percent(plans, TxKind.GLOBAL), 1.5);
        assertEquals(85, Fixtures.percent(plans, TxKind.LOCAL), 1.5);
        List<TxPlan> half = Fixtures.plans(Fixtures.options("--workload", "tpcb", "--global", "50"));
        assertEquals(50, Fixtures.percent(half, TxKind.GLOBAL), 1.5);
    }

    @Test
    void aTransferReadsAccountTellerBranchAndWritesThemAndAHistoryRecord() {
        for (TxPlan plan : Fixtures.plans(options)) {
            TpcB.Transfer transfer = (TpcB.Transfer) plan;
            assertEquals(List.of(transfer.account(), transfer.teller(), transfer.branch()), plan.reads());
            Map<Bytes, Bytes> writes = plan.writes(Arrays.asList(null, null, null));
            assertEquals(
                    List.of(transfer.account(), transfer.teller(), transfer.branch(), transfer.history()),
                    List.copyOf(writes.keySet()));
            assertEquals(TpcB.HISTORY_BYTES, writes.get(transfer.history()).size());
            assertTrue(Math.abs(transfer.delta()) <= TpcB.DELTA_MAX);
            int accountRank = rankOf.get(transfer.account()) - TpcB.accountRank(branches, 0, 0);
            int tellerRank = rankOf.get(transfer.teller()) - TpcB.tellerRank(branches, 0, 0);
            int branchRank = rankOf.get(transfer.branch());
            assertTrue(accountRank >= 0 && accountRank < branches * TpcB.ACCOUNTS_PER_BRANCH);
            assertTrue(tellerRank >= 0 && tellerRank < branches * TpcB.TELLERS_PER_BRANCH);
            assertEquals(accountRank / TpcB.ACCOUNTS_PER_BRANCH, branchRank, "the account's branch");
            assertTrue(rankOf.get(transfer.history()) >= TpcB.firstHistoryRank(branches));
            int home = Fixtures.partitionOf(transfer.teller());
            int remote = Fixtures.partitionOf(transfer.account());
            assertEquals(remote, Fixtures.partitionOf(transfer.branch()));
            assertEquals(home, Fixtures.partitionOf(transfer.history()));
            if (plan.kind() == TxKind.LOCAL) {
                assertEquals(home, remote);
                assertEquals(tellerRank / TpcB.TELLERS_PER_BRANCH, branchRank, "the teller's own branch");
            } else {
                assertTrue(home != remote);
            }
        }
    }

    @Test
    void balancesAddUpToTheDepositsAfterRunningThePlans() {
        Map<Bytes, Bytes> store = new HashMap<>();
        long deposited = 0;
        long accounts = 0;
        long tellers = 0;
        long branchTotal = 0;
        for (TxPlan plan : Fixtures.plans(options)) {
            TpcB.Transfer transfer = (TpcB.Transfer) plan;
            long accountBefore = TpcB.balance(store.get(transfer.account()));
            Fixtures.apply(store, plan);
            assertEquals(accountBefore + transfer.delta(), TpcB.balance(store.get(transfer.account())));
            deposited += transfer.delta();
        }
        for (Map.Entry<Bytes, Bytes> entry : store.entrySet()) {
            int rank = rankOf.get(entry.getKey());
            if (rank < branches) {
                branchTotal += TpcB.balance(entry.getValue());
            } else if (rank < TpcB.accountRank(branches, 0, 0)) {
                tellers += TpcB.balance(entry.getValue());
            } else if (rank < TpcB.firstHistoryRank(branches)) {
                accounts += TpcB.balance(entry.getValue());
            }
        }
        assertEquals(deposited, accounts);
        assertEquals(deposited, tellers);
        assertEquals(deposited, branchTotal);
    }

    @Test
    void aMissingBalanceIsZeroAndTooSmallAKeySpaceIsRefused() {
        assertEquals(0, TpcB.balance(null));
        assertEquals(-5, TpcB.balance(TpcB.encodeBalance(-5)));
        assertThrows(IllegalArgumentException.class, () -> TpcB.branchesPerPartition(221));
        assertEquals(450, TpcB.branchesPerPartition(100_000));
    }
}
