package dev.duro.client;

import static dev.duro.client.FakeCluster.absent;
import static dev.duro.client.FakeCluster.readHeldUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Write;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.ReadRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Reads a transaction has in flight at once: single-key ones raced, and multi-key reads ({@code getAll}). */
class ConcurrentReadsTest {
    private final FakeCluster cluster = new FakeCluster(1);
    private final DuroClient client = cluster.client(0);

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    private static List<Bytes> keys(String... names) {
        return Arrays.stream(names).map(Bytes::utf8).toList();
    }

    private CommitTransaction onlyCommit() {
        List<FakeCluster.Received> commits = cluster.commits();
        assertEquals(1, commits.size(), "commit requests");
        return commits.get(0).request();
    }

    /**
     * Two reads sent before either returns both ask for the latest snapshot; the fake serves them at snapshots 10
     * and 11. The first answer fixes the snapshot; the other read is sent again at it, so every value the
     * transaction saw is from the snapshot it certifies at.
     */
    @Test
    void aReadServedAtAnotherSnapshotThanTheFixedOneIsReadAgainThere() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        cluster.thenReads(readHeldUntil(release, absent()), absent(), absent());
        Transaction transaction = client.begin();
        CompletableFuture<Bytes> first = transaction.getAsync(Bytes.utf8("a"));
        assertNull(transaction.getAsync(Bytes.utf8("b")).join()); // served at 10: fixes the snapshot
        release.complete(null); // "a" is now served at 11
        assertNull(first.join());
        transaction.put("c", "3");
        transaction.commit();

        List<ClientRequest> reads = cluster.readRequests();
        assertEquals(3, reads.size(), "a, b, then a again: " + reads);
        ReadRequest again = assertInstanceOf(ReadRequest.class, reads.get(2));
        assertEquals(Bytes.utf8("a"), again.key());
        assertEquals(FakeCluster.FIRST_SNAPSHOT, again.snapshot(), "read again at the fixed snapshot");
        CommitTransaction.Participant participant = onlyCommit().participants().get(0);
        assertEquals(FakeCluster.FIRST_SNAPSHOT, participant.snapshot());
        assertEquals(keys("b", "a"), participant.readSet());
    }

    @Test
    void getAllSendsOneRequestForTheKeysItDoesNotHoldAndRecordsThemAsRead() {
        Transaction transaction = client.begin();
        transaction.put("own", "mine");

        Map<Bytes, Bytes> values = transaction.getAll(keys("x", "own", "y", "x", "z"));

        assertEquals(keys("x", "own", "y", "z"), new ArrayList<>(values.keySet()), "the keys' order, once each");
        assertEquals(Bytes.utf8("mine"), values.get(Bytes.utf8("own")), "its own write, not asked for");
        assertNull(values.get(Bytes.utf8("x")));
        assertTrue(values.containsKey(Bytes.utf8("z")), "an absent key maps to null");
        List<ClientRequest> reads = cluster.readRequests();
        assertEquals(1, reads.size(), "one request for the partition: " + reads);
        MultiReadRequest read = assertInstanceOf(MultiReadRequest.class, reads.get(0));
        assertEquals(keys("x", "y", "z"), read.keys());
        assertTrue(read.readsLatest(), "the first read fixes the snapshot");

        transaction.commit();
        CommitTransaction.Participant participant = onlyCommit().participants().get(0);
        assertEquals(FakeCluster.FIRST_SNAPSHOT, participant.snapshot());
        assertEquals(keys("x", "y", "z"), participant.readSet());
        assertEquals(List.of(Write.put(Bytes.utf8("own"), Bytes.utf8("mine"))), participant.writeSet());
    }

    @Test
    void getAllCutsManyKeysIntoRequestsThatOneReplyFrameHolds() {
        List<Bytes> many = new ArrayList<>();
        for (int i = 0; i < 2 * MultiReads.KEYS_PER_REQUEST_MAX + 1; i++) {
            many.add(Bytes.utf8("k" + i));
        }
        Transaction transaction = client.begin();
        assertEquals(many.size(), transaction.getAll(many).size());

        List<ClientRequest> reads = cluster.readRequests();
        assertEquals(3, reads.size(), "32 + 32 + 1 keys: " + reads);
        assertTrue(((MultiReadRequest) reads.get(0)).readsLatest(), "the first group fixes the snapshot");
        for (ClientRequest later : reads.subList(1, reads.size())) {
            assertEquals(FakeCluster.FIRST_SNAPSHOT, ((MultiReadRequest) later).snapshot(), "the others read at it");
        }
        transaction.put("w", "1");
        transaction.commit();
        CommitTransaction.Participant participant = onlyCommit().participants().get(0);
        assertEquals(many.size(), participant.readSet().size());
        assertEquals(FakeCluster.FIRST_SNAPSHOT, participant.snapshot());
    }

    @Test
    void aTransactionThatStartedCommittingReadsNoMore() {
        Transaction transaction = client.begin();
        transaction.put("w", "1");
        transaction.commit();
        assertThrows(IllegalStateException.class, () -> transaction.getAll(keys("x")));
    }
}
