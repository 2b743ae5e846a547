package dev.duro.client;

import static dev.duro.client.FakeCluster.readError;
import static dev.duro.client.FakeCluster.readHangUp;
import static dev.duro.client.FakeCluster.readSilence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.wire.ErrorCode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node that crashes, hangs, lags or is no longer the leader costs a client one request, not its transaction: reads
 * and commits go to the next node, the node is tried last for a while, and the layout is asked of the nodes that
 * still answer. Three fake nodes, every one a replica of the one partition.
 */
class FailoverTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    private final FakeCluster cluster = new FakeCluster(3);
    private final DuroClient client = cluster.client(0, TIMEOUT);

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    private List<Integer> readNodesFrom(int first) {
        List<Integer> nodes = cluster.readNodes();
        return nodes.subList(first, nodes.size());
    }

    @Test
    void aReadWhoseReplicaHangsUpIsAnsweredByAnotherReplica() {
        cluster.thenReads(readHangUp());

        assertNull(client.begin().get("a"));

        List<Integer> nodes = cluster.readNodes();
        assertEquals(2, nodes.size(), "one read per replica asked: " + nodes);
        assertNotEquals(nodes.get(0), nodes.get(1), "the second read went to another replica");
    }

    @Test
    void aReplicaThatFailedIsTriedLastForAWhile() {
        cluster.thenReads(readHangUp());
        client.begin().get("a");
        int failed = cluster.readNodes().get(0);
        int before = cluster.readNodes().size();

        // Transactions spread their reads over the replicas: three in a row start at each replica once.
        for (int i = 0; i < 3; i++) {
            assertNull(client.begin().get("k" + i));
        }

        assertEquals(3, readNodesFrom(before).size(), "each read answered at the first replica asked");
        assertFalse(
                readNodesFrom(before).contains(failed),
                "no read went to node " + failed + ": " + readNodesFrom(before));
        assertTrue(client.health().avoided(cluster.address(failed)));
    }

    @Test
    void aReplicaThatNeverAnswersIsGivenUpAfterTheConfiguredRequestTimeout() {
        client.cluster(); // the layout first: the clock measures the read alone
        cluster.thenReads(readSilence());

        long start = System.nanoTime();
        assertNull(client.begin().get("a"));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(2, cluster.readNodes().size());
        assertTrue(elapsedMillis >= TIMEOUT.toMillis(), "waited for the silent replica: " + elapsedMillis + " ms");
        // One timeout and one round trip, far from the default request timeout of 10 s.
        assertTrue(elapsedMillis < 5_000, "gave up on it after " + elapsedMillis + " ms");
    }

    @Test
    void whenEveryReplicaFailsTheReadFailsAfterAskingEachOnce() {
        cluster.thenReads(readHangUp(), readHangUp(), readHangUp());

        assertThrows(UnavailableException.class, () -> client.begin().get("a"));

        assertEquals(Set.of(0, 1, 2), new HashSet<>(cluster.readNodes()));
        assertEquals(3, cluster.readNodes().size());
    }

    /** The replica cannot serve now (behind the snapshot or session, no leader, view stale); another may. */
    @ParameterizedTest
    @EnumSource(names = {"SNAPSHOT_NOT_READY", "NOT_READY", "UNKNOWN_PARTITION"})
    void aReplicaThatCannotServeTheReadYetPassesItToTheNext(ErrorCode code) {
        cluster.thenReads(readError(code));

        assertNull(client.begin().get("a"));

        assertEquals(2, cluster.readNodes().size());
        assertNotEquals(cluster.readNodes().get(0), cluster.readNodes().get(1));
    }

    /** Every replica would answer the same: asking them all would only multiply the load or the wait. */
    @ParameterizedTest
    @EnumSource(names = {"OVERLOADED", "INTERNAL", "LIMIT_EXCEEDED"})
    void aReadRefusedForAReasonEveryReplicaSharesReachesTheCaller(ErrorCode code) {
        cluster.thenReads(readError(code));

        ServerErrorException refused =
                assertThrows(ServerErrorException.class, () -> client.begin().get("a"));

        assertEquals(code, refused.code());
        assertEquals(1, cluster.readNodes().size(), "no other replica was asked");
    }

    @Test
    void aSnapshotTooOldIsTheTransactionsProblemNotTheReplicas() {
        cluster.thenReads(readError(ErrorCode.SNAPSHOT_TOO_OLD));

        assertThrows(SnapshotTooOldException.class, () -> client.begin().get("a"));

        assertEquals(1, cluster.readNodes().size(), "no other replica was asked");
    }

    @Test
    void aStoppedLeaderIsPassedOverByTheCommitAndTheLayoutIsAskedOfTheOthers() {
        client.cluster(); // learnt from node 0, the seed and the leader
        cluster.stop(0);
        Transaction transaction = client.begin();
        transaction.put("b", "2");

        transaction.commit();

        assertEquals(1, cluster.commits().size());
        assertEquals(1, cluster.commits().get(0).node(), "the leader refused the connection: the next replica");
        client.refreshCluster();
        assertEquals(List.of(0, 1), cluster.clusterInfoNodes(), "the seed first, then a node the view names");
    }

    @Test
    void commitsGoFirstToTheLeaderOfTheRefreshedLayout() {
        client.cluster();
        cluster.leader(2);
        client.refreshCluster();
        Transaction transaction = client.begin();
        transaction.put("b", "2");

        transaction.commit();

        assertEquals(2, cluster.commits().get(0).node());
    }

    /**
     * Nothing failed, yet a moved leader is followed: a node that led before a crash serves again as a follower and
     * would otherwise go on coordinating this client's commits. Takes {@link ClusterViews#REFRESH_AFTER} (2 s).
     */
    @Test
    void theLayoutFollowsAMovedLeaderOnceItIsOlderThanTheRefreshInterval() throws InterruptedException {
        assertEquals(cluster.address(0), client.cluster().leader(0));
        cluster.leader(2);

        long deadline = System.nanoTime() + ClusterViews.REFRESH_AFTER.toNanos() + 5_000_000_000L;
        while (!cluster.address(2).equals(client.cluster().leader(0))) {
            assertTrue(System.nanoTime() < deadline, "the layout still names node 0 as the leader");
            Thread.sleep(10); // polling: cluster() refreshes in the background and returns at once
        }
    }

    @Test
    void aNodeThatCannotBuildACutYetPassesTheReadOnlyTransactionToTheNext() {
        cluster.cutError(0, ErrorCode.NOT_READY).cutError(1, ErrorCode.NOT_READY);

        long[] cut = client.beginReadOnly().cut();

        assertEquals(FakeCluster.FIRST_SNAPSHOT, cut[0]);
        List<FakeCluster.CutAsked> asked = cluster.cutRequests();
        assertEquals(2, asked.get(asked.size() - 1).node(), "node 2 answered: " + asked);
        assertTrue(asked.size() <= 3, "each node asked at most once: " + asked);
    }

    @Test
    void aCutRefusedForAnotherReasonFailsTheReadOnlyTransaction() {
        for (int node = 0; node < 3; node++) {
            cluster.cutError(node, ErrorCode.OVERLOADED);
        }

        ServerErrorException refused = assertThrows(
                ServerErrorException.class, () -> client.beginReadOnly().cut());

        assertEquals(ErrorCode.OVERLOADED, refused.code());
        assertEquals(1, cluster.cutRequests().size());
    }
}
