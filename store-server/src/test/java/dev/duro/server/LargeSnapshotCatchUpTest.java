package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.consensus.ConsensusSettings;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica behind its leader's purged log can only come back through the leader's state-machine snapshot. Here
 * that snapshot is larger than the largest Raft (gRPC) message the nodes accept, as a partition's state soon is in
 * production; the replica fetches it from the leader's node (docs/replication.md, "Catching up from a snapshot"),
 * and the replica's partitions must keep committing while it catches up.
 *
 * <p>Three server processes, two partitions of three replicas, default message limit; values of 256 KiB make the
 * snapshots large after a few dozen commits, and a snapshot every 20 log entries makes the leaders purge soon.
 */
class LargeSnapshotCatchUpTest {
    private static final int VALUE_BYTES = 256 << 10;
    /** The limit every node runs with: the default consensus settings of {@link DuroServer}. */
    private static final int MESSAGE_BYTES_MAX =
            ConsensusSettings.defaults(Path.of("raft"), "127.0.0.1", 0).messageBytesMax();

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
                .set("raft.snapshot-every-entries", "20")
                .set("raft.fsync", "false")
                // Each node holds two partitions, which grow for as long as the test runs: up to 164 MB each on
                // a quiet machine (2026-11-25), where 768 MB ran a catching-up node out of heap. Loading a snapshot
                // needs its file and the state decoded from it at once, beside the other partition, and a leader
                // keeps, per follower and partition, up to 8 outstanding appends of up to 5 MB
                // (docs/replication.md, "Memory").
                .jvmOptions("-Xmx1280m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError")
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
    void aWipedFollowerInstallsASnapshotLargerThanOneRaftMessageWhileItsPartitionsKeepCommitting() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "large-", 3, false, VALUE_BYTES)) {
            writers.awaitMoreCommits(MESSAGE_BYTES_MAX / VALUE_BYTES + 4, "before the terms change");
            faults.purgeEveryLog();
            String wiped = faults.nodeLeadingNoPartition();
            cluster.kill(wiped);
            cluster.wipe(wiped);
            writers.awaitMoreCommits(4, "while " + wiped + " is down");
            for (int p = 0; p < cluster.partitionCount(); p++) {
                String leader = cluster.awaitLeader(p);
                long snapshotBytes = ClusterFaults.largestSnapshotBytes(cluster.raftGroupDirectory(leader, p));
                assertTrue(
                        snapshotBytes > MESSAGE_BYTES_MAX,
                        "partition " + p + "'s snapshot at " + leader + " (" + snapshotBytes
                                + " bytes) is larger than one message (" + MESSAGE_BYTES_MAX + " bytes)");
            }

            int logBefore = cluster.log(wiped).length();
            int[] commitsBefore = new int[cluster.partitionCount()];
            for (int p = 0; p < commitsBefore.length; p++) {
                commitsBefore[p] = writers.acknowledgedIn(p);
            }
            cluster.start(wiped);
            for (int p = 0; p < cluster.partitionCount(); p++) {
                int partition = p;
                // The leaders no longer have the log from the start: the only way back is their snapshot.
                Await.until(wiped + " installs partition " + p + "'s snapshot", () -> {
                    String output = cluster.log(wiped).substring(logBefore);
                    return output.contains("partition " + partition + " restored from snapshot")
                            ? Await.Poll.done(true)
                            : Await.Poll.notYet("not yet in its output");
                });
                int commitsDuringCatchUp = writers.acknowledgedIn(p) - commitsBefore[p];
                assertTrue(
                        commitsDuringCatchUp > 0,
                        "partition " + p + " commits while " + wiped + " catches up: " + commitsDuringCatchUp);
            }
            writers.awaitMoreCommits(4, "after " + wiped + " restarted empty");
            writers.stop();
            faults.assertNothingLost(writers, wiped);
        }
    }
}
