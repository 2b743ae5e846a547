package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Safe at any retention window, on a real cluster: three server processes, two partitions of three replicas,
 * with {@code engine.outcomes-retained=50} and {@code certification.window-transactions=200}. Global-heavy bank
 * transfers run from several threads while one node stays down for many times those windows (killed, then
 * restarted on its data), later another is killed, wiped and restarted empty, and last a leader is killed and
 * restarted. Each must come back to exactly the content of its peers.
 *
 * <p>Before the engine kept every global's decision in each participant's log, a restarted replica replaying old
 * globals asked for votes its peers had forgotten, could finish one differently, and converged to the same
 * {@code SC} with a different digest: silently diverged. Here every partition's replicas must report equal
 * digests, every account's balance must equal its opening balance plus the transfers whose marker key exists,
 * every acknowledged transfer's marker must exist, every transfer the cluster refused must have left none, and
 * nothing may stay pending. A client told {@code OUTCOME_UNKNOWN} (or left without an answer) is accounted for
 * by its marker: it counts if it committed, whatever the client was told.
 */
class SmallWindowClusterTest {
    private static final int OUTCOMES_RETAINED = 50;
    private static final int CERTIFICATION_WINDOW = 200;
    /** How many transfers commit while a node is down: many times both windows. */
    private static final int COMMITS_WHILE_DOWN = 600;

    @TempDir
    Path data;

    private TestCluster cluster;
    private DuroClient client;

    @BeforeEach
    void startCluster(TestInfo test) throws IOException {
        cluster = TestCluster.builder(data)
                .label(getClass().getSimpleName() + "-"
                        + test.getTestMethod().orElseThrow().getName())
                .nodes(3)
                .partitions(2)
                .replication(3)
                .flavour(TestCluster.Flavour.PROCESSES)
                .set("engine.outcomes-retained", Integer.toString(OUTCOMES_RETAINED))
                .set("certification.window-transactions", Integer.toString(CERTIFICATION_WINDOW))
                .set("raft.snapshot-every-entries", "200")
                .start();
        client = cluster.newClient();
    }

    @AfterEach
    void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void replicasDownForLongerThanTheWindowsComeBackIdenticalAndEveryTransferIsAccountedFor() throws Exception {
        try (BankTransfers bank = new BankTransfers(client, 6, 4, 80)) {
            bank.awaitMoreCommits(100, "before any fault");

            String sleeper = nodeLeadingNoPartition();
            cluster.kill(sleeper);
            bank.awaitMoreCommits(COMMITS_WHILE_DOWN, "while " + sleeper + " is down");
            cluster.start(sleeper);
            bank.awaitMoreCommits(100, "after " + sleeper + " restarted");

            String wiped = nodeLeadingNoPartition();
            cluster.kill(wiped);
            cluster.wipe(wiped);
            assertTrue(Files.notExists(cluster.dataDirectory(wiped)), "nothing of " + wiped + " is left on disk");
            bank.awaitMoreCommits(COMMITS_WHILE_DOWN, "while " + wiped + " is down and wiped");
            cluster.start(wiped);
            bank.awaitMoreCommits(100, "after " + wiped + " restarted empty");
            // Ratis counts no vote from a replica with an empty log, so until the wiped node has caught up, a
            // partition whose leader dies cannot elect another: wait for it before killing a leader.
            cluster.awaitCaughtUp(wiped);

            // A leader killed under load: retried commits meet the small outcome window, and the new leader
            // becomes the designated voter only once it has applied what was committed before its term.
            String leader = cluster.awaitLeader(0);
            cluster.kill(leader);
            bank.awaitMoreCommits(COMMITS_WHILE_DOWN, "while partition 0's leader " + leader + " is down");
            cluster.start(leader);
            bank.awaitMoreCommits(100, "after " + leader + " restarted");
            bank.stop();

            assertEquals(List.of(), bank.failures(), "transfers saw only expected failures");
            TestCluster.Converged converged = cluster.awaitConverged(); // equal digests, nothing pending
            assertAccountedFor(bank);
            System.out.printf(
                    "small windows: %d transfers acknowledged, %d refused, %d of unknown outcome (%d said"
                            + " OUTCOME_UNKNOWN); SC %s; %s down, then %s wiped, then leader %s down%n",
                    bank.acknowledged().size(),
                    bank.refused().size(),
                    bank.uncertain().size(),
                    bank.outcomeUnknownCount(),
                    converged.partitions().values().stream()
                            .map(status -> status.snapshotCounter())
                            .toList(),
                    sleeper,
                    wiped,
                    leader);
        }
    }

    /**
     * Every attempted transfer is read back by its marker: the acknowledged ones exist, the refused ones do not,
     * and the balances are exactly the opening balances moved by the transfers that exist.
     */
    private void assertAccountedFor(BankTransfers bank) {
        Map<String, String> markers = readAll(bank.attemptedMarkers());
        Map<String, BankTransfers.Transfer> acknowledged = bank.acknowledged();
        for (String marker : acknowledged.keySet()) {
            assertTrue(markers.containsKey(marker), "acknowledged transfer " + marker + " is present");
        }
        for (String marker : bank.refused().keySet()) {
            assertTrue(!markers.containsKey(marker), "refused transfer " + marker + " left no trace");
        }
        Map<String, Long> expected = new HashMap<>();
        for (String account : bank.accounts()) {
            expected.put(account, BankTransfers.OPENING_BALANCE);
        }
        Map<String, BankTransfers.Transfer> attempted = bank.attempted();
        markers.forEach((marker, value) -> {
            BankTransfers.Transfer transfer = attempted.get(marker);
            assertEquals(transfer.encoded(), value, marker + " holds the transfer it was written with");
            expected.merge(transfer.from(), -transfer.amount(), Long::sum);
            expected.merge(transfer.to(), transfer.amount(), Long::sum);
        });
        Map<String, String> balances = readAll(bank.accounts());
        Map<String, Long> actual = new HashMap<>();
        long total = 0;
        for (String account : bank.accounts()) {
            long balance = Long.parseLong(balances.get(account));
            actual.put(account, balance);
            total += balance;
        }
        assertEquals(BankTransfers.OPENING_BALANCE * bank.accounts().size(), total, "the bank's total is exact");
        assertEquals(expected, actual, "every balance is its opening balance moved by the committed transfers");
    }

    private Map<String, String> readAll(Set<String> keys) {
        return ClusterFaults.readLinearizably(client, keys);
    }

    private String nodeLeadingNoPartition() {
        return ClusterFaults.nodeLeadingNoPartition(cluster);
    }
}
