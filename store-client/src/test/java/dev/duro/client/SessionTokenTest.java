package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.duro.core.TxId;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ReadRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes and monotonic reads: the client keeps, per partition, the newest version it committed or read
 * (its session token) and never reads below it. Update transactions send it with every read, and a replica that
 * has not reached it refuses the read, which goes to the next replica; read-only transactions ask for a cut that
 * covers it and pass over a node whose cut falls short.
 */
class SessionTokenTest {
    private final FakeCluster cluster = new FakeCluster(3);
    private final DuroClient client = cluster.client(0);

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    /** Commits "b" and returns its version at the partition. */
    private long commitAWrite() {
        Transaction writer = client.begin();
        writer.put("b", "2");
        return writer.commit().versions().get(0);
    }

    private void allCuts(long snapshot) {
        for (int node = 0; node < 3; node++) {
            cluster.cut(node, snapshot);
        }
    }

    @Test
    void theTokenOfAPartitionIsTheNewestVersionCommittedOrReadThereAndNeverGoesDown() {
        client.recordCommit(new CommitResult(new TxId(1, 1), Map.of(0, 105L, 3, 7L)));
        client.recordCommit(new CommitResult(new TxId(1, 2), Map.of(0, 103L)));
        client.recordCut(new long[] {104, 0, 0, 9});

        assertEquals(105, client.sessionToken(0));
        assertEquals(0, client.sessionToken(1), "a partition never written nor read has none");
        assertEquals(0, client.sessionToken(2));
        assertEquals(9, client.sessionToken(3));
    }

    @Test
    void aReadAfterACommitNeedsItsVersionAndALaggingReplicaPassesTheReadOn() {
        cluster.reached(0, 50).reached(1, 50).reached(2, 500);
        long version = commitAWrite();
        int before = cluster.readRequests().size();

        Transaction reader = client.begin();
        assertNull(reader.get("a"));
        reader.put("c", "3");
        reader.commit();

        List<ClientRequest> reads =
                cluster.readRequests().subList(before, cluster.readRequests().size());
        for (ClientRequest read : reads) {
            assertEquals(version, ((ReadRequest) read).minVersion(), "every read carries the session token");
        }
        List<Integer> nodes = cluster.readNodes();
        assertEquals(2, nodes.get(nodes.size() - 1), "only node 2 has reached version " + version);
        long snapshot = cluster.commits().get(1).request().participants().get(0).snapshot();
        assertEquals(500, snapshot, "the reader's snapshot holds the writer's commit");
    }

    @Test
    void aReadOnlyTransactionAfterACommitReadsACutThatCoversIt() {
        allCuts(120);
        cluster.thenCuts(60); // whichever node is asked first answers with a cut from before the commit
        cluster.reached(0, 60).reached(1, 60).reached(2, 120);
        long version = commitAWrite();

        ReadOnlyTransaction reader = client.beginReadOnly();
        assertNull(reader.get("a"));

        assertArrayEquals(new long[] {120}, reader.cut());
        List<FakeCluster.CutAsked> asked = cluster.cutRequests();
        assertEquals(2, asked.size(), "the cut that falls short, then one that covers the commit: " + asked);
        assertNotEquals(asked.get(0).node(), asked.get(1).node(), "the second from another node");
        for (FakeCluster.CutAsked request : asked) {
            assertEquals(List.of(version), request.request().minimum(), "asked of node " + request.node());
        }
        ReadRequest read =
                (ReadRequest) cluster.readRequests().get(cluster.readRequests().size() - 1);
        assertEquals(120, read.snapshot(), "the read is at the cut, not at the latest snapshot");
        List<Integer> nodes = cluster.readNodes();
        assertEquals(2, nodes.get(nodes.size() - 1), "only node 2 has reached the cut");
    }

    @Test
    void aLaterReadOnlyTransactionNeverReadsAnOlderCutThanAnEarlierOne() {
        allCuts(120);
        assertArrayEquals(new long[] {120}, client.beginReadOnly().cut());
        allCuts(130);
        cluster.thenCuts(60); // a node that lost its state, or trails the others
        int before = cluster.cutRequests().size();

        long[] later = client.beginReadOnly().cut();

        assertArrayEquals(new long[] {130}, later);
        List<FakeCluster.CutAsked> asked =
                cluster.cutRequests().subList(before, cluster.cutRequests().size());
        assertEquals(2, asked.size(), asked.toString());
        for (FakeCluster.CutAsked request : asked) {
            assertEquals(List.of(120L), request.request().minimum(), "the cut read before is the minimum");
        }
    }

    @Test
    void theSessionIsTheClientsOwnAnotherClientDoesNotWaitForIt() {
        commitAWrite();
        try (DuroClient other = cluster.client(0)) {
            other.beginReadOnly().cut();
        }

        List<FakeCluster.CutAsked> asked = cluster.cutRequests();
        assertEquals(1, asked.size());
        assertEquals(List.of(0L), asked.get(0).request().minimum());
    }
}
