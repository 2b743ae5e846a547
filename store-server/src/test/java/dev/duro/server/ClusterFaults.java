package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.ReadConsistency;
import dev.duro.core.Bytes;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

/**
 * What the fault tests on a {@link TestCluster} of processes share: choosing a node to hurt, making every replica
 * purge the start of its log, and the final check that nothing acknowledged was lost.
 */
final class ClusterFaults {
    private static final Pattern SEGMENT = Pattern.compile("log_(?:inprogress_)?(\\d+)(?:-\\d+)?");

    private final TestCluster cluster;
    private final DuroClient client;

    ClusterFaults(TestCluster cluster, DuroClient client) {
        this.cluster = cluster;
        this.client = client;
    }

    /** A node that leads no partition now: with three nodes and two partitions there is always one. */
    String nodeLeadingNoPartition() {
        return nodeLeadingNoPartition(cluster);
    }

    static String nodeLeadingNoPartition(TestCluster cluster) {
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
    void purgeEveryLog() throws IOException {
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
    void assertNothingLost(UniqueKeyWriters writers, String faultyNode) throws IOException {
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
        try (RawConnection connection = cluster.rawConnection(faultyNode)) {
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

    private Map<String, String> readThroughClient(Set<String> keys) {
        return readLinearizably(client, keys);
    }

    /**
     * Reads {@code keys} in linearizable read-only transactions of a hundred keys each (every commit acknowledged
     * before is in their cut; a snapshot cut may trail the chain of cuts); absent keys are left out.
     */
    static Map<String, String> readLinearizably(DuroClient client, Set<String> keys) {
        Map<String, String> values = new HashMap<>();
        List<String> all = new ArrayList<>(keys);
        for (int from = 0; from < all.size(); from += 100) {
            List<String> batch = all.subList(from, Math.min(all.size(), from + 100));
            values.putAll(client.readOnly(ReadConsistency.LINEARIZABLE, ro -> {
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

    /** The size of the largest state-machine snapshot file in a group's directory, or 0 if none is there. */
    static long largestSnapshotBytes(Path group) throws IOException {
        long largest = 0;
        try (Stream<Path> files = Files.list(group.resolve("sm"))) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.startsWith("snapshot.") && !name.endsWith(".md5") && !name.endsWith(".writing")) {
                    try {
                        largest = Math.max(largest, Files.size(file));
                    } catch (NoSuchFileException deleted) {
                        // an older snapshot the replica has just let go
                    }
                }
            }
        }
        return largest;
    }
}
