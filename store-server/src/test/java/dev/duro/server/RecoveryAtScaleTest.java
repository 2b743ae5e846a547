package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.duro.client.DuroClient;
import dev.duro.core.Bytes;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery at production sizes, measured. Opt-in: it runs for a quarter of an hour or more and takes several GB
 * of memory and disk. {@code -Dduro.recovery.keys=1000000} enables it (see docs/replication.md for the command).
 *
 * <p>Three server processes ({@code -Xmx4g} each), two partitions of three replicas, every Duro setting at its
 * default. One writer per partition fills it with {@code duro.recovery.keys} keys of 120-byte values, 40 to a
 * transaction and one transaction per log entry: a million keys are 25,000 entries, past the 20,000 after which a
 * replica snapshots its state and purges its log. Then, with the writers held to {@code duro.recovery.rate}
 * transactions per second per partition (200: 24,000 log entries in two minutes, enough for the leaders to snapshot
 * and purge the log the node missed):
 *
 * <ol>
 *   <li>a follower is killed ({@code kill -9}) for {@code duro.recovery.down-seconds} (120) and started again on
 *       its data;
 *   <li>a follower is killed, its data deleted, and started again empty {@code duro.recovery.wiped-down-seconds}
 *       (30) later.
 * </ol>
 *
 * Each time it measures how long the node takes to serve reads at the snapshot counters its partitions' leaders had
 * reached when it started, whether it came back through a snapshot fetched from the leader (and how large), and how the
 * other two replicas kept committing meanwhile. At the end every partition's replicas must converge, and the
 * sampled keys read back at both nodes. The figures are printed and written to
 * {@code target/recovery-at-scale.md}. {@code -Dduro.recovery.outcomes-retained=N} sets
 * {@code engine.outcomes-retained} on every node, to run the same recoveries past the window of retained outcomes.
 * {@code -Dduro.recovery.writers=W} runs W writers per partition and {@code -Dduro.recovery.keys-per-transaction=K}
 * puts K keys in each transaction (1 and 40 by default): smaller transactions from more writers give the outage
 * hundreds of thousands of deliveries.
 */
@EnabledIfSystemProperty(named = "duro.recovery.keys", matches = "[0-9]+")
class RecoveryAtScaleTest {
    private static final int KEYS_PER_TRANSACTION = 40;
    private static final int VALUE_BYTES = 120;
    private static final Duration LOAD_DEADLINE = Duration.ofMinutes(30);
    private static final Duration CATCH_UP_DEADLINE = Duration.ofMinutes(10);
    private static final Pattern INSTALLED = Pattern.compile(
            "partition (\\d+) restored from snapshot at \\(t:(\\d+), i:(\\d+)\\) \\(SC (\\d+), (\\d+) bytes, loaded in"
                    + " (\\d+) ms\\), fetched from the leader");

    @TempDir
    Path data;

    private TestCluster cluster;
    private final StringBuilder report = new StringBuilder();

    /** What one recovery took, per partition where it says so. */
    private record Recovery(
            String node,
            boolean wiped,
            long downSeconds,
            long[] leaderSnapshotBytes,
            long readyMillis,
            long[] servingMillis,
            int[] installs,
            long[] installedSnapshotBytes,
            long[] installedMillis,
            int[] commitsDuringCatchUp,
            long[] longestCommitGapMillis) {}

    @AfterEach
    void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
        Path out = Path.of("target", "recovery-at-scale.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString(), StandardCharsets.UTF_8);
    }

    @Test
    void aNodeKilledUnderLoadAndThenAWipedNodeCatchUpOnTheirOwn() throws Exception {
        long keysPerPartition = Long.getLong("duro.recovery.keys");
        long downSeconds = Long.getLong("duro.recovery.down-seconds", 120);
        long wipedDownSeconds = Long.getLong("duro.recovery.wiped-down-seconds", 30);
        int transactionsPerSecond = Integer.getInteger("duro.recovery.rate", 200);
        String outcomesRetained = System.getProperty("duro.recovery.outcomes-retained");
        int keysPerTransaction = Integer.getInteger("duro.recovery.keys-per-transaction", KEYS_PER_TRANSACTION);
        int writersPerPartition = Integer.getInteger("duro.recovery.writers", 1);
        TestCluster.Builder builder = TestCluster.builder(data)
                .label(getClass().getSimpleName())
                .nodes(3)
                .partitions(2)
                .replication(3)
                .flavour(TestCluster.Flavour.PROCESSES)
                .jvmOptions("-Xmx4g", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError");
        if (outcomesRetained != null) {
            // A window far smaller than what a down node misses: its peers forget most of what it replays.
            builder.set("engine.outcomes-retained", outcomesRetained);
        }
        cluster = builder.start();
        DuroClient client = cluster.newClient();
        ClusterFaults faults = new ClusterFaults(cluster, client);
        print("# Recovery at scale\n\n3 nodes x 2 partitions x 3 replicas, "
                + (outcomesRetained == null ? "default settings" : "engine.outcomes-retained=" + outcomesRetained)
                + ", -Xmx4g per node; "
                + keysPerPartition + " keys of " + VALUE_BYTES + " B per partition, " + keysPerTransaction
                + " per transaction, " + writersPerPartition + " writer(s) per partition\n");
        List<Recovery> recoveries = new ArrayList<>();
        try (BulkWriters writers =
                new BulkWriters(client, "scale-", keysPerTransaction, VALUE_BYTES, writersPerPartition)) {
            long loadStart = System.nanoTime();
            writers.awaitKeysInEveryPartition(keysPerPartition, LOAD_DEADLINE);
            print("load: " + keysPerPartition + " keys per partition in " + secondsSince(loadStart) + " s; from now on"
                    + " at most " + transactionsPerSecond + " transactions per second per partition");
            writers.throttle(transactionsPerSecond);
            recoveries.add(recover(writers, faults.nodeLeadingNoPartition(), false, downSeconds));
            recoveries.add(recover(writers, faults.nodeLeadingNoPartition(), true, wipedDownSeconds));
            writers.stop();
            assertEquals(List.of(), writers.failures(), "writers saw only expected failures");
            TestCluster.Converged converged = cluster.awaitConverged();
            for (Recovery recovery : recoveries) {
                assertSampleReadsBack(writers, recovery.node(), converged);
            }
            for (int p = 0; p < cluster.partitionCount(); p++) {
                print("partition " + p + ": " + writers.acknowledgedKeys(p) + " keys acknowledged, "
                        + writers.uncertainTransactions(p) + " transactions with unknown outcome; replicas converged"
                        + " at SC " + converged.snapshotCounter(p));
            }
        }
        recoveries.forEach(this::printRecovery);
    }

    private Recovery recover(BulkWriters writers, String node, boolean wipe, long downSeconds) throws IOException {
        cluster.kill(node);
        if (wipe) {
            cluster.wipe(node);
        }
        print((wipe ? "wiped " : "killed ") + node + "; down for " + downSeconds + " s under load");
        awaitOutage(writers, downSeconds);
        int partitions = cluster.partitionCount();
        long[] leaderCounters = new long[partitions];
        String[] probeKeys = new String[partitions];
        long[] leaderSnapshotBytes = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            // The key first: a counter read after its acknowledgement covers it at the leader.
            probeKeys[p] = writers.lastAcknowledged(p);
            String leader = cluster.awaitLeader(p);
            leaderCounters[p] = cluster.replicaStatus(leader, p).snapshotCounter();
            leaderSnapshotBytes[p] = ClusterFaults.largestSnapshotBytes(cluster.raftGroupDirectory(leader, p));
            awaitServing(leader, p, probeKeys[p], leaderCounters[p], writers, System.nanoTime());
        }
        LogWatch log = new LogWatch(cluster, node);
        long start = System.nanoTime();
        cluster.start(node);
        long readyMillis = millisSince(start);
        long[] servingMillis = new long[partitions];
        int[] installs = new int[partitions];
        long[] installedBytes = new long[partitions];
        long[] installedMillis = new long[partitions];
        long end = start;
        for (int p = 0; p < partitions; p++) {
            servingMillis[p] = awaitServing(node, p, probeKeys[p], leaderCounters[p], writers, start);
            end = Math.max(end, start + servingMillis[p] * 1_000_000);
        }
        log.installs().forEach(install -> {
            installs[install.partition()]++;
            installedBytes[install.partition()] += install.bytes();
            installedMillis[install.partition()] += install.loadMillis();
        });
        int[] commits = new int[partitions];
        long[] gaps = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            commits[p] = writers.acknowledgedBetween(p, start, end);
            gaps[p] = writers.longestGapMillis(p, start, end);
        }
        return new Recovery(
                node,
                wipe,
                downSeconds,
                leaderSnapshotBytes,
                readyMillis,
                servingMillis,
                installs,
                installedBytes,
                installedMillis,
                commits,
                gaps);
    }

    /** The outage itself: its length is the point, so this waits for time to pass, checking on the writers. */
    private static void awaitOutage(BulkWriters writers, long seconds) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            if (!writers.failures().isEmpty()) {
                throw new AssertionError("writers failed: " + writers.failures());
            }
            Await.pause(500);
        }
    }

    /** Waits until {@code node} reads {@code key} at {@code counter}; returns the ms since {@code startNanos}. */
    private long awaitServing(String node, int partition, String key, long counter, BulkWriters writers, long start) {
        String expected = writers.valueOf(key);
        Await.until(node + " serves partition " + partition + " at SC " + counter, CATCH_UP_DEADLINE, () -> {
            try (RawConnection connection = new RawConnection(cluster.clientAddress(node))) {
                ServerReply reply = connection.call(new ReadRequest(1, Bytes.utf8(key), counter, 0));
                if (!(reply instanceof ReadReply read) || read.value() == null) {
                    return Await.Poll.notYet(reply.toString());
                }
                assertEquals(expected, read.value().toUtf8(), node + " holds " + key);
                return Await.Poll.done(true);
            } catch (IOException e) {
                return Await.Poll.notYet(e.toString());
            }
        });
        return millisSince(start);
    }

    private void assertSampleReadsBack(BulkWriters writers, String node, TestCluster.Converged converged)
            throws IOException {
        Map<String, Integer> sample = writers.sample();
        try (RawConnection connection = new RawConnection(cluster.clientAddress(node))) {
            long requestId = 1;
            for (Map.Entry<String, Integer> key : sample.entrySet()) {
                long counter = converged.snapshotCounter(key.getValue());
                ServerReply reply = connection.call(new ReadRequest(requestId++, Bytes.utf8(key.getKey()), counter, 0));
                ReadReply read = assertInstanceOf(ReadReply.class, reply, node + " reads " + key.getKey());
                assertEquals(
                        writers.valueOf(key.getKey()),
                        read.value() == null ? null : read.value().toUtf8(),
                        node + " holds " + key.getKey());
            }
        }
        print(node + " read back all " + sample.size() + " sampled keys at the converged snapshot counters");
    }

    private void printRecovery(Recovery recovery) {
        print("\n## " + (recovery.wiped() ? "Wiped" : "Killed") + " node " + recovery.node() + ", down "
                + recovery.downSeconds() + " s\n");
        print("started (accepting clients) after " + recovery.readyMillis() + " ms\n");
        print(
                "| partition | leader's snapshot (B) | serving at the leader's SC after (ms) | installed from the leader (B)"
                        + " | snapshots installed | loading them took (ms) | commits by the others meanwhile | longest commit gap (ms) |");
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (int p = 0; p < recovery.servingMillis().length; p++) {
            print("| " + p + " | " + recovery.leaderSnapshotBytes()[p] + " | " + recovery.servingMillis()[p] + " | "
                    + recovery.installedSnapshotBytes()[p] + " | " + recovery.installs()[p] + " | "
                    + recovery.installedMillis()[p] + " | "
                    + recovery.commitsDuringCatchUp()[p] + " | " + recovery.longestCommitGapMillis()[p] + " |");
        }
    }

    private void print(String line) {
        System.out.println(line);
        report.append(line).append('\n');
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static long secondsSince(long startNanos) {
        return millisSince(startNanos) / 1_000;
    }

    /** The snapshots a node installed from its leaders, read from its output after the watch was created. */
    private static final class LogWatch {
        private final TestCluster cluster;
        private final String node;
        private final int from;

        record Install(int partition, long bytes, long loadMillis) {}

        LogWatch(TestCluster cluster, String node) {
            this.cluster = cluster;
            this.node = node;
            this.from = cluster.log(node).length();
        }

        List<Install> installs() {
            List<Install> installs = new ArrayList<>();
            Matcher line = INSTALLED.matcher(cluster.log(node).substring(from));
            while (line.find()) {
                installs.add(new Install(
                        Integer.parseInt(line.group(1)), Long.parseLong(line.group(5)), Long.parseLong(line.group(6))));
            }
            return installs;
        }
    }
}
