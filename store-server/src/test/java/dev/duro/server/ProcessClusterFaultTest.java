package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.core.Bytes;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
    private static final Pattern SEGMENT = Pattern.compile("log_(?:inprogress_)?(\\d+)(?:-\\d+)?");

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
                .set("raft.snapshot-every-entries", "50")
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
    void aFollowerKilledUnderLoadRestartsAndCatchesUpWithoutLosingAnyAcknowledgedCommit() throws Exception {
        String follower = nodeLeadingNoPartition();
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "follower-kill-", 3)) {
            writers.awaitMoreCommits(40, "before the kill");
            cluster.kill(follower);
            writers.awaitMoreCommits(40, "while " + follower + " is down");
            cluster.start(follower);
            writers.awaitMoreCommits(40, "after " + follower + " restarted");
            writers.stop();
            assertNothingLost(writers, follower);
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
            assertNothingLost(writers, leader);
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
            String follower = nodeLeadingNoPartition();
            cluster.kill(follower);
            writers.awaitMoreCommits(30, "with " + follower + " down");
            cluster.start(follower);
            writers.awaitMoreCommits(20, "after " + follower + " restarted");
            writers.stop();
            assertNothingLost(writers, follower);
        }
    }

    @Test
    void aNodeRestartsFromItsSnapshotAfterItsLogWasPurged() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "snapshot-restart-", 3)) {
            writers.awaitMoreCommits(60, "before the terms change");
            purgeEveryLog();
            String restarted = nodeLeadingNoPartition();
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
            assertNothingLost(writers, restarted);
        }
    }

    @Test
    void aFollowerWhoseDataWasWipedCatchesUpByInstallingASnapshot() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "wiped-", 3)) {
            writers.awaitMoreCommits(60, "before the terms change");
            purgeEveryLog();
            String wiped = nodeLeadingNoPartition();
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
            assertNothingLost(writers, wiped);
        }
    }

    // ---- helpers ----

    /** A node that leads no partition now: with three nodes and two partitions there is always one. */
    private String nodeLeadingNoPartition() {
        Set<String> leaders = new LinkedHashSet<>();
        for (int p = 0; p < cluster.partitionCount(); p++) {
            leaders.add(cluster.awaitLeader(p));
        }
        return cluster.nodeIds().stream()
                .filter(node -> !leaders.contains(node))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Makes every replica purge the start of its log: a new term closes the open log segment (the leader of each
     * partition is killed and restarted), and the next snapshots, 50 entries later, let Ratis delete the closed
     * segments they cover. Call it under load; it waits until no replica's log starts at index 0 any more.
     */
    private void purgeEveryLog() throws IOException {
        Map<Integer, String> firstLeaders = new HashMap<>();
        for (int p = 0; p < cluster.partitionCount(); p++) {
            firstLeaders.put(p, cluster.awaitLeader(p));
        }
        for (int p = 0; p < cluster.partitionCount(); p++) {
            String leader = cluster.awaitLeader(p);
            if (!leader.equals(firstLeaders.get(p))) {
                continue; // killing the leader of an earlier partition changed this one's term too
            }
            cluster.kill(leader);
            assertNotEquals(leader, cluster.awaitLeader(p));
            cluster.start(leader);
        }
        for (String node : cluster.nodeIds()) {
            for (int p = 0; p < cluster.partitionCount(); p++) {
                Path group = cluster.raftGroupDirectory(node, p);
                Await.until(node + " purges the start of partition " + p + "'s log", () -> {
                    long start = logStartIndex(group);
                    boolean snapshot = hasSnapshot(group);
                    return start > 0 && snapshot
                            ? Await.Poll.done(start)
                            : Await.Poll.notYet("log starts at " + start + ", snapshot taken: " + snapshot);
                });
            }
        }
    }

    /** The first index of the log kept in {@code group}'s segment files, or -1 if none is there. */
    private static long logStartIndex(Path group) {
        long start = Long.MAX_VALUE;
        try (Stream<Path> files = Files.list(group.resolve("current"))) {
            for (Path file : files.toList()) {
                Matcher segment = SEGMENT.matcher(file.getFileName().toString());
                if (segment.matches()) {
                    start = Math.min(start, Long.parseLong(segment.group(1)));
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return start == Long.MAX_VALUE ? -1 : start;
    }

    private static boolean hasSnapshot(Path group) {
        try (Stream<Path> files = Files.list(group.resolve("sm"))) {
            return files.anyMatch(file -> file.getFileName().toString().startsWith("snapshot."));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Once the load has stopped: the replicas converge; every acknowledged commit reads back with its value
     * through the client, and at the node that went through the fault, straight from its replica; an uncertain
     * commit holds its value or nothing.
     */
    private void assertNothingLost(UniqueKeyWriters writers, String faultyNode) throws IOException {
        assertEquals(List.of(), writers.failures(), "writers saw only expected failures");
        TestCluster.Converged converged = cluster.awaitConverged();
        Map<String, String> acknowledged = writers.acknowledged();
        assertTrue(acknowledged.size() >= 100, "the load committed: " + acknowledged.size());
        assertEquals(acknowledged, readThroughClient(acknowledged.keySet()), "acknowledged commits read back");
        Map<String, String> aborted = writers.aborted();
        assertEquals(Map.of(), readThroughClient(aborted.keySet()), "keys of aborted transactions stay invisible");
        Map<String, String> uncertain = writers.uncertain();
        Map<String, String> uncertainRead = readThroughClient(uncertain.keySet());
        uncertain.forEach((key, value) -> {
            String seen = uncertainRead.get(key);
            assertTrue(seen == null || seen.equals(value), key + " holds " + seen + ", not its value " + value);
        });
        ClusterView view = client.cluster();
        try (RawConnection connection = new RawConnection(cluster.clientAddress(faultyNode))) {
            long requestId = 1;
            // The node that went through the fault builds linearizable cuts again: the leaders' frontiers reach
            // it after its restart even when no vote was sent its way (local-only load).
            List<Long> cut = Await.until(faultyNode + " gives a linearizable cut covering every partition", () -> {
                try {
                    ServerReply reply = connection.call(new SnapshotVectorRequest(System.nanoTime(), true));
                    return reply instanceof SnapshotVectorReply vector
                            ? Await.Poll.done(vector.cut())
                            : Await.Poll.notYet(reply.toString());
                } catch (IOException e) {
                    return Await.Poll.notYet(e.toString());
                }
            });
            for (int p = 0; p < cluster.partitionCount(); p++) {
                assertTrue(
                        cut.get(p) >= converged.snapshotCounter(p),
                        faultyNode + "'s linearizable cut " + cut + " covers partition " + p + " at "
                                + converged.snapshotCounter(p));
            }
            for (Map.Entry<String, String> commit : acknowledged.entrySet()) {
                Bytes key = Bytes.utf8(commit.getKey());
                long snapshot = converged.snapshotCounter(view.partitionOf(key));
                ServerReply reply = connection.call(new ReadRequest(requestId++, key, snapshot, 0));
                ReadReply read = assertInstanceOf(ReadReply.class, reply, faultyNode + " reads " + commit.getKey());
                assertEquals(
                        commit.getValue(),
                        read.value() == null ? null : read.value().toUtf8(),
                        faultyNode + " holds " + commit.getKey());
            }
        }
    }

    /** Reads {@code keys} in read-only transactions of a hundred keys each. */
    private Map<String, String> readThroughClient(Set<String> keys) {
        Map<String, String> values = new HashMap<>();
        List<String> all = new ArrayList<>(keys);
        for (int from = 0; from < all.size(); from += 100) {
            List<String> batch = all.subList(from, Math.min(all.size(), from + 100));
            values.putAll(client.readOnly(ro -> {
                Map<String, String> read = new HashMap<>();
                for (String key : batch) {
                    String value = ro.get(key);
                    if (value != null) {
                        read.put(key, value);
                    }
                }
                return read;
            }));
        }
        return values;
    }
}
