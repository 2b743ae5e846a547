package dev.duro.client;

import static dev.duro.client.FakeCluster.abort;
import static dev.duro.client.FakeCluster.commit;
import static dev.duro.client.FakeCluster.error;
import static dev.duro.client.FakeCluster.hangUp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.TxId;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link DuroClient#transact} runs a body again only when its earlier attempt is known not to have committed. */
class TransactRetryTest {
    private static final int RESENDS = 2;
    private static final int NODES = 3;

    final FakeCluster cluster = new FakeCluster(NODES);
    /** Replaced only by a test of another retry policy. */
    DuroClient client = cluster.client(RESENDS);

    final AtomicInteger runs = new AtomicInteger();

    @AfterEach
    void stop() {
        client.close();
        cluster.close();
    }

    /** One run of the transfer under test, through the API under test. */
    String transfer() {
        return client.transact(tx -> {
            runs.incrementAndGet();
            tx.putLong("alice", tx.getLong("alice") - 10);
            tx.putLong("bob", 10);
            return "done";
        });
    }

    /** The transaction ids of the commits received, in order, one entry per send. */
    private List<TxId> sentIds() {
        return cluster.commits().stream().map(r -> r.request().tid()).toList();
    }

    private void assertOneRequestPerId() {
        for (FakeCluster.Received received : cluster.commits()) {
            CommitTransaction first = cluster.commits().stream()
                    .filter(r -> r.request().tid().equals(received.request().tid()))
                    .findFirst()
                    .orElseThrow()
                    .content();
            assertEquals(first, received.content(), "every send of one id carries the same request");
        }
    }

    @Test
    void anAbortedAttemptRunsTheBodyAgainInANewTransaction() {
        cluster.then(abort(), commit());

        assertEquals("done", transfer());

        assertEquals(2, runs.get(), "body runs");
        List<TxId> ids = sentIds();
        assertEquals(2, ids.size());
        assertNotEquals(ids.get(0), ids.get(1), "a new transaction id for the new attempt: " + ids);
    }

    @Test
    void anUnknownOutcomeIsNeverAnsweredByRunningTheBodyAgain() {
        int sends = (1 + RESENDS) * NODES;
        for (int i = 0; i < sends; i++) {
            cluster.then(hangUp());
        }

        UnavailableException unknown = assertThrows(UnavailableException.class, this::transfer);

        assertTrue(unknown.outcomeUnknown(), unknown.getMessage());
        assertEquals(1, runs.get(), "body runs");
        assertEquals(sends, cluster.commits().size(), "the first send and " + RESENDS + " resends, each to every node");
        assertEquals(1, sentIds().stream().distinct().count(), "one transaction id: " + sentIds());
        assertOneRequestPerId();
    }

    @Test
    void resendsOfAnUnknownOutcomeStopOnceTheResendTimeHasPassedWhateverTheirCount() {
        int resendsMax = 1_000;
        Duration resendTime = Duration.ofMillis(400);
        client.close();
        client = cluster.client(
                new RetryPolicy(5, Duration.ofMillis(10), Duration.ofMillis(10), resendsMax, resendTime),
                Duration.ofSeconds(5));
        for (int i = 0; i < (1 + resendsMax) * NODES; i++) {
            cluster.then(hangUp());
        }

        long started = System.nanoTime();
        UnavailableException unknown = assertThrows(UnavailableException.class, this::transfer);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertTrue(unknown.outcomeUnknown(), unknown.getMessage());
        assertEquals(1, runs.get(), "body runs");
        int sends = cluster.commits().size();
        assertTrue(sends >= 2 * NODES, "resent at least once: " + sends + " sends");
        assertTrue(sends < (1 + resendsMax) * NODES, "stopped by the time, not the count: " + sends + " sends");
        assertTrue(took.compareTo(resendTime) >= 0, "resent for the whole resend time: stopped after " + took);
        assertEquals(1, sentIds().stream().distinct().count(), "one transaction id: " + sentIds());
    }

    @Test
    void anUnknownOutcomeIsResolvedByResendingTheSameCommit() {
        cluster.then(hangUp(), error(ErrorCode.NOT_READY), hangUp(), commit());

        assertEquals("done", transfer());

        assertEquals(1, runs.get(), "body runs");
        assertEquals(4, cluster.commits().size());
        assertEquals(1, sentIds().stream().distinct().count(), "one transaction id: " + sentIds());
        assertOneRequestPerId();
    }

    @Test
    void anAbortLearntByAResendRunsTheBodyAgain() {
        cluster.then(hangUp(), hangUp(), hangUp(), abort(), commit());

        assertEquals("done", transfer());

        assertEquals(2, runs.get(), "body runs");
        List<TxId> ids = sentIds();
        assertEquals(5, ids.size());
        assertEquals(1, ids.subList(0, 4).stream().distinct().count(), "the resends: " + ids);
        assertNotEquals(ids.get(4), ids.get(0), "the second run commits under a new id: " + ids);
        assertOneRequestPerId();
    }

    @Test
    void aLostOutcomeReachesTheCallerWithoutResendingOrRunningTheBodyAgain() {
        cluster.then(error(ErrorCode.OUTCOME_UNKNOWN));

        UnavailableException unknown = assertThrows(UnavailableException.class, this::transfer);

        assertTrue(unknown.outcomeUnknown());
        assertTrue(unknown.getMessage().contains("no longer retained"), unknown.getMessage());
        assertEquals(1, runs.get(), "body runs");
        assertEquals(1, cluster.commits().size(), "commit requests received");
    }

    @Test
    void aRefusedCommitReachesTheCallerWithoutRunningTheBodyAgain() {
        cluster.then(error(ErrorCode.LIMIT_EXCEEDED));

        ServerErrorException refused = assertThrows(ServerErrorException.class, this::transfer);

        assertEquals(ErrorCode.LIMIT_EXCEEDED, refused.code());
        assertEquals(1, runs.get(), "body runs");
        assertEquals(1, cluster.commits().size(), "a refusal any node would give is not sent to the others");
    }

    @Test
    void aSnapshotTooOldBeforeTheCommitRunsTheBodyAgain() {
        cluster.thenReads(FakeCluster.readError(ErrorCode.SNAPSHOT_TOO_OLD));

        assertEquals("done", transfer());

        assertEquals(2, runs.get(), "body runs");
        assertEquals(1, cluster.commits().size(), "only the second run reached its commit");
    }

    @Test
    void whenEveryAttemptAbortsTheLastAbortReachesTheCallerAfterAttemptsMaxRuns() {
        int attempts = 5; // FakeCluster's client policy
        for (int i = 0; i < attempts; i++) {
            cluster.then(abort());
        }

        assertThrows(TransactionAbortedException.class, this::transfer);

        assertEquals(attempts, runs.get(), "body runs");
        assertEquals(attempts, sentIds().stream().distinct().count(), "a new id per attempt: " + sentIds());
    }

    /** Reads key {@code a} in a read-only transaction, through the API under test. */
    String readA() {
        return client.readOnly(ro -> {
            runs.incrementAndGet();
            return ro.get("a");
        });
    }

    @Test
    void aReadOnlyBodyWhoseSnapshotWasCollectedRunsAgainAtANewCut() {
        cluster.thenReads(FakeCluster.readError(ErrorCode.SNAPSHOT_TOO_OLD));

        String value = readA();

        assertEquals(null, value);
        assertEquals(2, runs.get(), "body runs");
        assertEquals(2, cluster.cutRequests().size(), "each run read at a cut of its own");
    }
}
