package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real Ratis servers on loopback, two partitions: local commits replicate and replicas converge, and the
 * linearizable delivered counter is confirmed at every node.
 */
class ConsensusClusterTest {
    @TempDir
    Path data;

    private final List<ConsensusNode> nodes = new ArrayList<>();
    private final Map<TxId, CompletableFuture<Outcome>> outcomes = new ConcurrentHashMap<>();

    @AfterEach
    void stop() throws IOException {
        for (ConsensusNode node : nodes) {
            node.close();
        }
    }

    /**
     * Every replica writes snapshots beside applying (SnapshotWriter) and Ratis purges the log behind them; a node
     * restarted on its folder recovers from its own snapshot plus the log after it and ends equal to its peers.
     */
    @Test
    void snapshotsWrittenBesideApplyingRestoreARestartedNode() throws Exception {
        RaftTopology topology = startCluster(1);
        int transactions = 150; // one at a time, so about one log entry each: three snapshot intervals
        for (int i = 0; i < transactions; i++) {
            TxId tid = new TxId(9, i);
            CommitRequest request = new CommitRequest(
                    tid,
                    List.of(0),
                    nodes.get(0).replica(0).snapshotCounter(), // not too old for the certification window
                    List.of(),
                    List.of(Write.put(Bytes.utf8("snap-" + (i % 40)), Bytes.utf8("value-" + i))));
            outcomes.computeIfAbsent(tid, t -> new CompletableFuture<>());
            nodes.get(0).committer(0).submit(request).get(30, TimeUnit.SECONDS);
            assertTrue(outcomes.get(tid).get(30, TimeUnit.SECONDS).committed(), "blind writes commit");
        }
        awaitConverged(0, Duration.ofSeconds(30), transactions);
        for (ConsensusNode node : nodes) {
            awaitSnapshot(node, 50);
        }
        ConsensusNode stopped = nodes.remove(2);
        long digest = stopped.replica(0).contentDigest();
        stopped.close();
        ConsensusNode restarted = start(stopped.nodeId(), topology);
        assertTrue(
                restarted.replica(0).getLatestSnapshot().getIndex() >= 50,
                "the restarted replica found its snapshot: "
                        + restarted.replica(0).getLatestSnapshot());
        awaitConverged(0, Duration.ofSeconds(60), transactions);
        assertEquals(digest, restarted.replica(0).contentDigest());
    }

    /**
     * Followers learn that an entry committed from the leader at once ({@link DuroLogAppender}), not from the next
     * entry or a heartbeat: commits one at a time, each waited for until every replica applied it, take far less
     * than a heartbeat period each. Ratis's own appender made each wait for the heartbeat, half a second after the
     * entry's acknowledgement, as nothing else was sent.
     */
    @Test
    void followersApplyALoneCommitWithoutWaitingForAHeartbeat() throws Exception {
        startCluster(1);
        awaitSoleVoter(0, nodes);
        int transactions = 20;
        long started = System.nanoTime();
        for (int i = 0; i < transactions; i++) {
            TxId tid = new TxId(13, i);
            outcomes.computeIfAbsent(tid, t -> new CompletableFuture<>());
            CommitRequest request = new CommitRequest(
                    tid, List.of(0), 0, List.of(), List.of(Write.put(Bytes.utf8("lone-" + i), Bytes.utf8("v"))));
            nodes.get(i % nodes.size()).committer(0).submit(request).get(30, TimeUnit.SECONDS);
            assertTrue(outcomes.get(tid).get(30, TimeUnit.SECONDS).committed(), "blind writes commit");
            awaitConverged(0, Duration.ofSeconds(30), i + 1);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        long heartbeatMillis = RatisProperties.ELECTION_TIMEOUT_MIN_MILLIS / 2;
        assertTrue(
                millis < transactions * heartbeatMillis / 4,
                transactions + " lone commits reached every replica in " + millis + " ms; a heartbeat comes every "
                        + heartbeatMillis + " ms");
    }

    /** Waits until {@code node}'s replica of partition 0 has registered a snapshot at or after {@code index}. */
    private static void awaitSnapshot(ConsensusNode node, long index) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (node.replica(0).getLatestSnapshot() == null
                || node.replica(0).getLatestSnapshot().getIndex() < index) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(node.nodeId() + " took no snapshot at or after " + index + ": "
                        + node.replica(0).getLatestSnapshot());
            }
            Thread.sleep(20);
        }
    }

    private RaftTopology startCluster(int partitions) throws IOException {
        Map<String, String> addresses = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            addresses.put("n" + i, "127.0.0.1:" + freePort());
        }
        List<List<String>> replicas = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            replicas.add(List.of("n0", "n1", "n2"));
        }
        RaftTopology topology = new RaftTopology("test", addresses, replicas);
        for (int i = 0; i < 3; i++) {
            start("n" + i, topology);
        }
        return topology;
    }

    /** Starts node {@code id} on its folder (again, after a stop: it recovers what it stored) and adds it. */
    private ConsensusNode start(String id, RaftTopology topology) throws IOException {
        int port = Integer.parseInt(topology.raftAddresses().get(id).split(":")[1]);
        ConsensusSettings settings =
                ConsensusSettings.defaults(data.resolve(id), "127.0.0.1", port).withSnapshotEveryEntries(50);
        ConsensusNode node = ConsensusNode.start(
                id, topology, settings, EngineSettings.DEFAULT, Limits.DEFAULT, this::collect, this::copyFromPeer);
        nodes.add(node);
        return node;
    }

    /**
     * {@code cluster.preferred-leaders} on real Ratis servers ({@link LeaderPlacement}): both partitions' leaderships
     * go to the first listed node, to the next listed one while it is down (whichever survivor the election picked),
     * and back once it has restarted and caught up; commits go on throughout.
     */
    @Test
    void leadershipsGoToThePreferredNodeAndComeBackAfterItsRestart() throws Exception {
        RaftTopology topology = startCluster(2);
        List<String> preferred = List.of("n2", "n1");
        for (ConsensusNode node : nodes) {
            node.placeLeaders(preferred);
        }
        awaitLeader("n2", Duration.ofSeconds(30));
        commitAtEveryPartition(0);
        ConsensusNode first = node("n2");
        nodes.remove(first);
        first.close();
        awaitLeader("n1", Duration.ofSeconds(30));
        commitAtEveryPartition(1);
        ConsensusNode restarted = start("n2", topology);
        restarted.placeLeaders(preferred);
        awaitLeader("n2", Duration.ofSeconds(60));
        commitAtEveryPartition(2);
        long asked = 0;
        for (ConsensusNode node : nodes) {
            asked += node.leaderTransfersAsked();
        }
        assertTrue(asked >= 2, "leaderships came back by transfers, not elections alone: " + asked);
        for (int p = 0; p < 2; p++) {
            awaitConverged(p, Duration.ofSeconds(30), 3);
        }
    }

    /** A blind write committed through every node at each partition: the leaders serve, wherever they are. */
    private void commitAtEveryPartition(int round) throws Exception {
        for (int p = 0; p < 2; p++) {
            TxId tid = new TxId(11, 10 * round + p);
            outcomes.computeIfAbsent(tid, t -> new CompletableFuture<>());
            CommitRequest request = new CommitRequest(
                    tid, List.of(p), 0, List.of(), List.of(Write.put(Bytes.utf8("placed-" + round), Bytes.utf8("v"))));
            nodes.get(round % nodes.size()).committer(p).submit(request).get(30, TimeUnit.SECONDS);
            assertTrue(outcomes.get(tid).get(30, TimeUnit.SECONDS).committed(), "round " + round + " commits");
        }
    }

    /** Waits until node {@code id} leads both partitions and every live node knows it. */
    private void awaitLeader(String id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> seen = new ArrayList<>();
            for (ConsensusNode node : nodes) {
                for (int p = 0; p < 2; p++) {
                    seen.add(node.nodeId() + ":" + p + "=" + node.leaderOf(p));
                }
            }
            if (seen.stream().allMatch(leader -> leader.endsWith("=" + id))
                    && node(id).isLeader(0)
                    && node(id).isLeader(1)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("leaders did not move to " + id + " in " + timeout + ": " + seen);
            }
            Thread.sleep(50);
        }
    }

    private ConsensusNode node(String id) {
        return nodes.stream()
                .filter(node -> node.nodeId().equals(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no live node " + id));
    }

    /**
     * A snapshot fetch between nodes of this JVM: a file copy. The server's fetch over its own connections is tested
     * with real processes (store-server's LargeSnapshotCatchUpTest).
     */
    private SnapshotFile copyFromPeer(String node, int partition, long indexMin, Path into) throws IOException {
        ConsensusNode source = List.copyOf(nodes).stream()
                .filter(candidate -> candidate.nodeId().equals(node))
                .findFirst()
                .orElseThrow(() -> new IOException("no node " + node));
        SnapshotFile newest = source.replica(partition)
                .latestSnapshot()
                .orElseThrow(() -> new IOException(node + " has no snapshot of partition " + partition));
        Files.copy(newest.file(), into, StandardCopyOption.REPLACE_EXISTING);
        return new SnapshotFile(into, newest.term(), newest.index(), newest.bytes(), newest.md5());
    }

    private void collect(int partition, List<Effect> effects) {
        for (Effect effect : effects) {
            if (effect instanceof Effect.Reply reply) {
                outcomes.computeIfAbsent(reply.outcome().tid(), t -> new CompletableFuture<>())
                        .complete(reply.outcome());
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void localCommitsReplicateAndReplicasConverge() throws Exception {
        startCluster(2);
        List<ConsensusNode> leaders = List.of(awaitSoleVoter(0, nodes), awaitSoleVoter(1, nodes));
        int transactions = 200;
        List<CompletableFuture<Void>> appended = new ArrayList<>();
        for (int i = 0; i < transactions; i++) {
            int partition = i % 2;
            TxId tid = new TxId(7, i);
            outcomes.computeIfAbsent(tid, t -> new CompletableFuture<>());
            Bytes key = Bytes.utf8("key-" + i);
            CommitRequest request = new CommitRequest(
                    tid, List.of(partition), 0, List.of(), List.of(Write.put(key, Bytes.utf8("value-" + i))));
            appended.add(nodes.get(i % 3).committer(partition).submit(request));
        }
        CompletableFuture.allOf(appended.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
        // Every append was committed and applied at its leader: a ReadIndex from any node, answered by its own
        // replica once it has applied that far (a follower read for two nodes of three), counts all 100 of each
        // partition as delivered.
        for (ConsensusNode node : nodes) {
            for (int p = 0; p < 2; p++) {
                assertEquals(
                        100L,
                        node.linearizableDeliveredCounter(p).get(30, TimeUnit.SECONDS),
                        node.nodeId() + " confirms partition " + p);
            }
        }
        for (CompletableFuture<Outcome> outcome : outcomes.values()) {
            assertTrue(outcome.get(30, TimeUnit.SECONDS).committed(), "blind writes to distinct keys commit");
        }
        long batched = 0;
        long entries = 0;
        for (ConsensusNode node : nodes) {
            for (int p = 0; p < 2; p++) {
                batched += node.committer(p).commandsSent();
                entries += node.committer(p).entriesSent();
            }
        }
        assertEquals(transactions, batched);
        assertTrue(entries < transactions, "group commit packs several commands per entry: " + entries);
        // A leader's own node proposes straight to its replica; the others go through their Raft clients.
        for (int p = 0; p < 2; p++) {
            assertTrue(leaders.get(p).isLeader(p), "partition " + p + " kept its leader through the test");
            for (ConsensusNode node : nodes) {
                GroupCommitter committer = node.committer(p);
                assertEquals(
                        node == leaders.get(p) ? committer.entriesSent() : 0,
                        committer.entriesCommittedLocally(),
                        node.nodeId() + "'s entries for partition " + p + " proposed locally");
            }
        }
        for (int p = 0; p < 2; p++) {
            awaitConverged(p, Duration.ofSeconds(30));
        }

        // A global transaction delivered at partition 0 whose vote from partition 1 never arrives (this test
        // carries no votes) stays pending: SC stays at 100, but the linearizable answer counts it as delivered. A
        // replica that did get the vote could already have acknowledged it, so a linearizable read must wait for it.
        CommitRequest global = new CommitRequest(
                new TxId(7, 1_000), List.of(0, 1), 0, List.of(), List.of(Write.put(Bytes.utf8("g"), Bytes.utf8("v"))));
        nodes.get(0).committer(0).submit(global).get(30, TimeUnit.SECONDS);
        for (ConsensusNode node : nodes) {
            assertEquals(101L, node.linearizableDeliveredCounter(0).get(30, TimeUnit.SECONDS), node.nodeId());
            assertEquals(100L, node.replica(0).snapshotCounter(), node.nodeId() + " still waits for the vote");
        }
    }

    /**
     * The designated voter is the leader once it is ready (it applied its term's first entry, so everything
     * committed before its election), and no other replica; when the leader's node stops, the next leader takes
     * over the role and the survivors that are not leader hold it nowhere.
     */
    @Test
    void theDesignatedVoterIsTheReadyLeaderAndFollowsLeadership() throws Exception {
        startCluster(2);
        for (int p = 0; p < 2; p++) {
            ConsensusNode voter = awaitSoleVoter(p, nodes);
            assertTrue(voter.isLeader(p), voter.nodeId() + " is partition " + p + "'s leader");
        }
        ConsensusNode first = awaitSoleVoter(0, nodes);
        // Commands committed under the first leader: the next must apply them before it becomes the voter.
        for (int i = 0; i < 20; i++) {
            CommitRequest request = new CommitRequest(
                    new TxId(8, i),
                    List.of(0),
                    0,
                    List.of(),
                    List.of(Write.put(Bytes.utf8("voter-" + i), Bytes.utf8("v"))));
            first.committer(0).submit(request).get(30, TimeUnit.SECONDS);
        }
        first.close();
        nodes.remove(first); // closed already
        ConsensusNode next = awaitSoleVoter(0, nodes);
        assertTrue(next.isLeader(0), next.nodeId() + " leads partition 0 after " + first.nodeId() + " stopped");
        assertTrue(
                next.replica(0).snapshotCounter() >= 20,
                "the new voter applied everything committed before its term: SC "
                        + next.replica(0).snapshotCounter());
        // Both survivors keep proposing: the new leader to its own replica, the other through its client, which
        // had the stopped node for leader.
        for (ConsensusNode node : nodes) {
            long before = node.committer(0).entriesCommittedLocally();
            node.committer(0)
                    .submit(new CommitRequest(
                            new TxId(8, 100 + nodes.indexOf(node)),
                            List.of(0),
                            0,
                            List.of(),
                            List.of(Write.put(Bytes.utf8("after-" + node.nodeId()), Bytes.utf8("v")))))
                    .get(30, TimeUnit.SECONDS);
            assertEquals(
                    node == next ? before + 1 : before,
                    node.committer(0).entriesCommittedLocally(),
                    node.nodeId() + " proposed locally only while leading");
        }
    }

    /** Waits until exactly one of {@code among} is {@code partition}'s designated voter, and returns it. */
    private static ConsensusNode awaitSoleVoter(int partition, List<ConsensusNode> among) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<ConsensusNode> voters = new ArrayList<>();
            for (ConsensusNode node : among) {
                if (node.replica(partition).isDesignatedVoter()) {
                    voters.add(node);
                }
            }
            if (voters.size() == 1) {
                return voters.get(0);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("partition " + partition + " has " + voters.size() + " designated voters");
            }
            Thread.sleep(20);
        }
    }

    private void awaitConverged(int partition, Duration timeout) throws InterruptedException {
        awaitConverged(partition, timeout, 100);
    }

    private void awaitConverged(int partition, Duration timeout, long counter) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Long> digests = new ArrayList<>();
            List<Long> counters = new ArrayList<>();
            for (ConsensusNode node : nodes) {
                digests.add(node.replica(partition).contentDigest());
                counters.add(node.replica(partition).snapshotCounter());
            }
            if (digests.stream().distinct().count() == 1 && counters.get(0) == counter) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("partition " + partition + " did not converge: SC " + counters);
            }
            Thread.sleep(20);
        }
    }
}
