package dev.duro.client;

import static dev.duro.client.FakeCluster.abort;
import static dev.duro.client.FakeCluster.commit;
import static dev.duro.client.FakeCluster.error;
import static dev.duro.client.FakeCluster.hangUp;
import static dev.duro.client.FakeCluster.heldUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Write;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Once its commit starts, a transaction's request is fixed: every send carries the same content under one id. */
class FrozenTransactionTest {
    private final FakeCluster cluster = new FakeCluster(3);
    private final DuroClient client = cluster.client(0);

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    /** Reads "a", then writes "b", "c" and deletes "d": the request the tests expect to see, every time. */
    private Transaction readThenWrite() {
        Transaction transaction = client.begin();
        assertNull(transaction.get("a"));
        transaction.put("b", "2");
        transaction.put("c", "3");
        transaction.delete("d");
        return transaction;
    }

    private static CommitTransaction expectedRequest(Transaction transaction) {
        return new CommitTransaction(
                0,
                transaction.id(),
                List.of(new CommitTransaction.Participant(
                        0,
                        FakeCluster.FIRST_SNAPSHOT,
                        List.of(Bytes.utf8("a")),
                        List.of(
                                Write.put(Bytes.utf8("b"), Bytes.utf8("2")),
                                Write.put(Bytes.utf8("c"), Bytes.utf8("3")),
                                Write.delete(Bytes.utf8("d"))))));
    }

    private void assertEverySendCarries(CommitTransaction expected, int sends) {
        List<FakeCluster.Received> commits = cluster.commits();
        assertEquals(sends, commits.size(), "commit requests received");
        for (FakeCluster.Received received : commits) {
            assertEquals(expected, received.content(), "request sent to node " + received.node());
        }
    }

    @Test
    void failingOverToTheNextCoordinatorSendsTheSameRequest() {
        cluster.then(error(ErrorCode.NOT_READY), hangUp(), commit());
        Transaction transaction = readThenWrite();

        transaction.commit();

        assertEverySendCarries(expectedRequest(transaction), 3);
        assertEquals(
                List.of(0, 1, 2),
                cluster.commits().stream().map(FakeCluster.Received::node).toList(),
                "each coordinator in turn");
    }

    @Test
    void committingAgainAfterAnUnknownOutcomeResendsExactlyTheSameRequestUnderTheSameId() {
        cluster.then(hangUp(), hangUp(), hangUp());
        Transaction transaction = readThenWrite();

        UnavailableException unknown = assertThrows(UnavailableException.class, transaction::commit);
        assertTrue(unknown.outcomeUnknown(), unknown.getMessage());
        CommitResult result = transaction.commit();

        assertEverySendCarries(expectedRequest(transaction), 4);
        assertEquals(transaction.id(), result.tid());
        assertEquals(1, cluster.latestReads(), "only the read of \"a\" went to the cluster");
    }

    @Test
    void aBlindWriteFixesItsSnapshotOnceAcrossResends() {
        cluster.then(hangUp(), hangUp(), hangUp());
        Transaction transaction = client.begin();
        transaction.put("b", "2");

        assertThrows(UnavailableException.class, transaction::commit);
        transaction.commit();

        // The fake answers every latest read at a newer snapshot: fixing it again would change the request.
        assertEquals(1, cluster.latestReads(), "snapshot-fixing reads");
        CommitTransaction expected = new CommitTransaction(
                0,
                transaction.id(),
                List.of(new CommitTransaction.Participant(
                        0,
                        FakeCluster.FIRST_SNAPSHOT,
                        List.of(),
                        List.of(Write.put(Bytes.utf8("b"), Bytes.utf8("2"))))));
        assertEverySendCarries(expected, 4);
    }

    @Test
    void aTransactionOfUnknownOutcomeRefusesWritesReadsAndRollback() {
        cluster.then(hangUp(), hangUp(), hangUp());
        Transaction transaction = readThenWrite();
        assertThrows(UnavailableException.class, transaction::commit);

        IllegalStateException put = assertThrows(IllegalStateException.class, () -> transaction.put("b", "changed"));
        assertEquals("transaction " + transaction.id() + " is committing; its writes are frozen", put.getMessage());
        IllegalStateException delete = assertThrows(IllegalStateException.class, () -> transaction.delete("e"));
        assertEquals(put.getMessage(), delete.getMessage());
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> transaction.get("e"));
        assertTrue(read.getMessage().contains(transaction.id() + " is committing"), read.getMessage());
        assertThrows(IllegalStateException.class, transaction::rollback);
        transaction.close(); // try-with-resources must not throw

        transaction.commit();
        assertEverySendCarries(expectedRequest(transaction), 4);
    }

    @Test
    void writesAreFrozenWhileTheCommitIsInFlightAndASecondCommitDoesNotSendAgain() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        cluster.then(heldUntil(release, commit()));
        Transaction transaction = readThenWrite();

        CompletableFuture<CommitResult> first = transaction.commitAsync();
        IllegalStateException put = assertThrows(IllegalStateException.class, () -> transaction.put("b", "changed"));
        assertTrue(put.getMessage().contains("is committing; its writes are frozen"), put.getMessage());
        CompletableFuture<CommitResult> second = transaction.commitAsync();
        release.complete(null);

        assertSame(first, second, "the commit under way");
        assertEquals(first.join(), second.join());
        assertEverySendCarries(expectedRequest(transaction), 1);
    }

    @Test
    void aCommittedTransactionReturnsItsResultAgainWithoutSending() {
        Transaction transaction = readThenWrite();

        CommitResult result = transaction.commit();

        assertEquals(result, transaction.commit());
        assertEquals(result, transaction.result());
        assertEverySendCarries(expectedRequest(transaction), 1);
        IllegalStateException put = assertThrows(IllegalStateException.class, () -> transaction.put("b", "changed"));
        assertEquals("transaction " + transaction.id() + " is committed; its writes are frozen", put.getMessage());
    }

    @Test
    void anAbortedTransactionStaysAborted() {
        cluster.then(abort());
        Transaction transaction = readThenWrite();

        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class, transaction::commit);
        TransactionAbortedException again = assertThrows(TransactionAbortedException.class, transaction::commit);

        assertEquals(aborted.reason(), again.reason());
        assertEverySendCarries(expectedRequest(transaction), 1);
        IllegalStateException put = assertThrows(IllegalStateException.class, () -> transaction.put("b", "changed"));
        assertEquals("transaction " + transaction.id() + " is aborted; its writes are frozen", put.getMessage());
        transaction.rollback(); // nothing to roll back: it ended
    }

    @Test
    void aRefusedCommitStaysCommittingAndResendsTheSameRequest() {
        cluster.then(error(ErrorCode.INTERNAL));
        Transaction transaction = readThenWrite();

        ServerErrorException refused = assertThrows(ServerErrorException.class, transaction::commit);
        assertEquals(ErrorCode.INTERNAL, refused.code());
        assertThrows(IllegalStateException.class, () -> transaction.put("b", "changed"));
        transaction.commit();

        assertEverySendCarries(expectedRequest(transaction), 2);
    }

    @Test
    void aRolledBackTransactionCannotCommit() {
        Transaction transaction = readThenWrite();
        transaction.rollback();

        IllegalStateException commit = assertThrows(IllegalStateException.class, transaction::commit);

        assertTrue(commit.getMessage().contains("rolled back"), commit.getMessage());
        assertFalse(transaction.commitSent());
        assertEquals(List.of(), cluster.commits());
    }

    @Test
    void aReadThatReturnsAfterTheCommitStartedIsNotHandedToTheApplication() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        cluster.thenReads(FakeCluster.absent(), FakeCluster.readHeldUntil(release, FakeCluster.absent()));
        Transaction transaction = client.begin();
        assertNull(transaction.get("x"));
        transaction.put("b", "2");
        CompletableFuture<Bytes> late = transaction.getAsync(Bytes.utf8("a"));

        transaction.commit();
        release.complete(null);

        CompletionException failure = assertThrows(CompletionException.class, late::join);
        IllegalStateException frozen = assertInstanceOf(IllegalStateException.class, failure.getCause());
        assertTrue(frozen.getMessage().contains(transaction.id() + " is committed"), frozen.getMessage());
        CommitTransaction expected = new CommitTransaction(
                0,
                transaction.id(),
                List.of(new CommitTransaction.Participant(
                        0,
                        FakeCluster.FIRST_SNAPSHOT,
                        List.of(Bytes.utf8("x")),
                        List.of(Write.put(Bytes.utf8("b"), Bytes.utf8("2"))))));
        assertEverySendCarries(expected, 1);
    }
}
