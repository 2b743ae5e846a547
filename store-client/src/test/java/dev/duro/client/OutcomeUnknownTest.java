package dev.duro.client;

import static dev.duro.client.FakeCluster.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.DuroException;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A server that no longer retains a delivered commit's outcome says so, and the client says so honestly. */
class OutcomeUnknownTest {
    private final FakeCluster cluster = new FakeCluster(3);
    private final DuroClient client = cluster.client(0);

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    @Test
    void anOutcomeUnknownReplyIsAnUnavailableExceptionOfUnknownOutcome() {
        UnavailableException error = assertInstanceOf(
                UnavailableException.class,
                Transport.errorOf(new ErrorReply(7, ErrorCode.OUTCOME_UNKNOWN, "retention window passed")));

        assertTrue(error.outcomeUnknown());
        assertTrue(error.getMessage().contains("may have committed"), error.getMessage());
        assertTrue(error.getMessage().contains("no longer retained"), error.getMessage());
        assertTrue(error.getMessage().contains("retention window passed"), error.getMessage());
    }

    @Test
    void aCommitAnsweredOutcomeUnknownSaysItMayHaveCommittedAndAsksNoOtherCoordinator() {
        cluster.then(error(ErrorCode.OUTCOME_UNKNOWN));
        Transaction transaction = client.begin();
        transaction.put("b", "2");

        UnavailableException unknown = assertThrows(UnavailableException.class, transaction::commit);

        assertTrue(unknown.outcomeUnknown());
        String message = unknown.getMessage();
        assertTrue(message.contains("transaction " + transaction.id()), message);
        assertTrue(message.contains("may have committed"), message);
        assertTrue(message.contains("no longer retained"), message);
        assertEquals(1, cluster.commits().size(), "the answer is final: nodes 1 and 2 were not asked");
        assertTrue(transaction.outcomeLost());
    }

    @Test
    void committingAgainAfterALostOutcomeGivesTheSameAnswerWithoutAsking() {
        cluster.then(error(ErrorCode.OUTCOME_UNKNOWN));
        Transaction transaction = client.begin();
        transaction.put("b", "2");
        UnavailableException first = assertThrows(UnavailableException.class, transaction::commit);

        UnavailableException again = assertThrows(UnavailableException.class, transaction::commit);

        assertEquals(first.getMessage(), again.getMessage());
        assertEquals(1, cluster.commits().size(), "commit requests received");
        IllegalStateException put = assertThrows(IllegalStateException.class, () -> transaction.put("b", "3"));
        assertTrue(put.getMessage().contains("may have committed"), put.getMessage());
        assertThrows(IllegalStateException.class, transaction::rollback);
    }

    @Test
    void anUnknownOutcomeAfterEveryCoordinatorFailedIsNotFinal() {
        cluster.then(FakeCluster.hangUp(), error(ErrorCode.NOT_READY), error(ErrorCode.OVERLOADED));
        Transaction transaction = client.begin();
        transaction.put("b", "2");

        DuroException unknown = assertThrows(UnavailableException.class, transaction::commit);

        assertTrue(((UnavailableException) unknown).outcomeUnknown());
        assertTrue(unknown.getMessage().contains("committing again is safe"), unknown.getMessage());
        assertEquals(3, cluster.commits().size());
        assertFalse(transaction.outcomeLost());
    }
}
