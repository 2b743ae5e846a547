package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three server processes, two partitions of three replicas, under load from the real client while nodes are
 * killed with {@code kill -9}, restarted on their data, or restarted with their data wiped. Every test checks
 * that no acknowledged commit is lost (each is read back, at the restarted node too) and that every partition's
 * replicas converge to the same content at the same snapshot counter.
 *
 * <p>Snapshots are taken every 50 log entries, so restarts and catch-ups go through snapshots and purged logs.
 */
class ProcessClusterFaultTest {
    @TempDir
    Path data;

    private TestCluster cluster;
    private DuroClient client;
    private ClusterFaults faults;

    @BeforeEach
    void startCluster(TestInfo test) throws IOException {
        cluster = TestCluster.builder(data)
                .label(getClass().getSimpleName() + "-"
                        + test.getTestMethod().orElseThrow().getName())
                .nodes(3)
                .partitions(2)
                .replication(3)
                .flavour(TestCluster.Flavour.PROCESSES)
                .set("raft.snapshot-every-entries", "50")
                .start();
        client = cluster.newClient();
        faults = new ClusterFaults(cluster, client);
    }

    @AfterEach
    void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFollowerKilledUnderLoadRestartsAndCatchesUpWithoutLosingAnyAcknowledgedCommit() throws Exception {
        String follower = faults.nodeLeadingNoPartition();
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "follower-kill-", 3)) {
            writers.awaitMoreCommits(40, "before the kill");
            cluster.kill(follower);
            writers.awaitMoreCommits(40, "while " + follower + " is down");
            cluster.start(follower);
            writers.awaitMoreCommits(40, "after " + follower + " restarted");
            writers.stop();
            faults.assertNothingLost(writers, follower);
        }
    }

    /**
     * A node started with {@code --exit-with-input} (as the load generator and these tests start theirs) whose
     * starter dies sees its input end, shuts down gracefully, and comes back on its data.
     */
    @Test
    void aNodeWhoseStarterIsGoneStopsGracefullyAndCatchesUpWhenRestarted() throws Exception {
        String follower = faults.nodeLeadingNoPartition();
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "orphan-", 3)) {
            writers.awaitMoreCommits(40, "before the input closes");
            int logStart = cluster.log(follower).length();
            assertEquals(0, cluster.orphan(follower), "a graceful stop");
            assertTrue(
                    cluster.log(follower).substring(logStart).contains("standard input closed"),
                    cluster.log(follower).substring(logStart));
            writers.awaitMoreCommits(40, "while " + follower + " is down");
            cluster.start(follower);
            writers.awaitMoreCommits(40, "after " + follower + " restarted");
            writers.stop();
            faults.assertNothingLost(writers, follower);
        }
    }

    @Test
    void commitsContinueAfterTheLeaderIsKilledAndNoAcknowledgedCommitIsLost() throws Exception {
        String leader = cluster.awaitLeader(0);
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "leader-kill-", 3)) {
            writers.awaitMoreCommits(40, "before the kill");
            cluster.kill(leader);
            String successor = cluster.awaitLeader(0);
            assertNotEquals(leader, successor, "a surviving replica takes over");
            writers.awaitMoreCommitsIn(0, 60, "after the re-election of partition 0");
            writers.awaitMoreCommitsIn(1, 20, "with " + leader + " down");
            cluster.start(leader);
            writers.awaitMoreCommits(20, "after " + leader + " restarted");
            writers.stop();
            faults.assertNothingLost(writers, leader);
        }
    }

    /**
     * Global load (every commit writes a key in each partition) while the leader of partition 1 and then a
     * follower are killed with {@code kill -9} and restarted: no acknowledged commit is lost at either partition,
     * the replicas converge, and no global transaction is left pending anywhere.
     */
    @Test
    void killingALeaderAndAFollowerDuringGlobalLoadLosesNothingAndLeavesNothingPending() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "global-kill-", 3, true)) {
            writers.awaitMoreCommits(30, "before the kills");
            String leader = cluster.awaitLeader(1);
            cluster.kill(leader);
            writers.awaitMoreCommits(30, "with the leader of partition 1 (" + leader + ") down");
            cluster.start(leader);
            writers.awaitMoreCommits(20, "after " + leader + " restarted");
            String follower = faults.nodeLeadingNoPartition();
            cluster.kill(follower);
            writers.awaitMoreCommits(30, "with " + follower + " down");
            cluster.start(follower);
            writers.awaitMoreCommits(20, "after " + follower + " restarted");
            writers.stop();
            faults.assertNothingLost(writers, follower);
        }
    }

    @Test
    void aNodeRestartsFromItsSnapshotAfterItsLogWasPurged() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "snapshot-restart-", 3)) {
            writers.awaitMoreCommits(60, "before the terms change");
            faults.purgeEveryLog();
            String restarted = faults.nodeLeadingNoPartition();
            int logBefore = cluster.log(restarted).length();
            cluster.kill(restarted);
            writers.awaitMoreCommits(20, "while " + restarted + " is down");
            cluster.start(restarted);
            String startup = cluster.startupOutput(restarted, logBefore);
            for (int p = 0; p < 2; p++) {
                assertTrue(
                        startup.contains("partition " + p + " restored from snapshot"),
                        restarted + " loads partition " + p + "'s snapshot at start-up:\n" + startup);
            }
            writers.awaitMoreCommits(20, "after " + restarted + " restarted");
            writers.stop();
            faults.assertNothingLost(writers, restarted);
        }
    }

    @Test
    void aFollowerWhoseDataWasWipedCatchesUpByInstallingASnapshot() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "wiped-", 3)) {
            writers.awaitMoreCommits(60, "before the terms change");
            faults.purgeEveryLog();
            String wiped = faults.nodeLeadingNoPartition();
            cluster.kill(wiped);
            cluster.wipe(wiped);
            assertTrue(Files.notExists(cluster.dataDirectory(wiped)), "nothing of " + wiped + " is left on disk");
            writers.awaitMoreCommits(20, "while " + wiped + " is down");
            int logBefore = cluster.log(wiped).length();
            cluster.start(wiped);
            for (int p = 0; p < 2; p++) {
                int partition = p;
                // The leaders no longer have the log from the start: the only way back is their snapshot.
                Await.until(wiped + " installs partition " + p + "'s snapshot", () -> {
                    String output = cluster.log(wiped).substring(logBefore);
                    return output.contains("partition " + partition + " restored from snapshot")
                            ? Await.Poll.done(true)
                            : Await.Poll.notYet("not yet in its output");
                });
            }
            writers.awaitMoreCommits(20, "after " + wiped + " restarted empty");
            writers.stop();
            faults.assertNothingLost(writers, wiped);
        }
    }
}
