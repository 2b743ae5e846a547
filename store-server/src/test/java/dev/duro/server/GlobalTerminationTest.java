package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.client.ReadConsistency;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Global transactions on a real cluster (3 nodes, 2 partitions, 3 replicas, in this JVM): the S-DUR paper's
 * problematic execution, a coordinator lost between its per-partition broadcasts, and read-only transactions
 * that must never see half of a global one.
 */
class GlobalTerminationTest {
    private static final List<Integer> BOTH = List.of(0, 1);

    @TempDir
    Path data;

    private TestCluster cluster;
    private Bytes x;
    private Bytes y;

    @BeforeEach
    void start() throws Exception {
        cluster = TestCluster.builder(data)
                .label("global-termination")
                .set("engine.abort-request-after-millis", "300")
                .start();
        DuroClient client = cluster.newClient();
        x = Bytes.utf8(TestCluster.keysOf(client.cluster(), 0, "fig1-x-", 1).get(0));
        y = Bytes.utf8(TestCluster.keysOf(client.cluster(), 1, "fig1-y-", 1).get(0));
    }

    @AfterEach
    void stop() throws Exception {
        cluster.close();
    }

    private PartitionStateMachine replica(String node, int partition) {
        return cluster.server(node).consensus().replica(partition);
    }

    /** Appends one partition's part of a transaction straight into that partition's log, as a coordinator does. */
    private void append(int partition, CommitRequest request) throws Exception {
        cluster.server("n1").consensus().committer(partition).submit(request).get(30, TimeUnit.SECONDS);
    }

    private Outcome awaitOutcome(String node, int partition, TxId tid) {
        return Await.until("outcome of " + tid + " at partition " + partition + " on " + node, () -> {
            Outcome outcome = replica(node, partition).outcomeOf(tid);
            return outcome == null ? Await.Poll.notYet("not finished") : Await.Poll.done(outcome);
        });
    }

    /**
     * S-DUR Figure 1: t_i reads x and reads and writes y; t_j reads y and reads and writes x. Partition 0 (x)
     * delivers t_i then t_j, partition 1 (y) delivers t_j then t_i. Naive certification would commit both, which
     * no serial order explains; the stronger test aborts both.
     */
    @Test
    void figureOneOppositeDeliveryOrdersAbortBoth() throws Exception {
        long st0 = replica("n1", 0).snapshotCounter();
        long st1 = replica("n1", 1).snapshotCounter();
        TxId ti = new TxId(0xF161, 1);
        TxId tj = new TxId(0xF161, 2);
        CommitRequest tiAtX = new CommitRequest(ti, BOTH, st0, List.of(x), List.of());
        CommitRequest tiAtY = new CommitRequest(ti, BOTH, st1, List.of(), List.of(Write.put(y, Bytes.utf8("i"))));
        CommitRequest tjAtY = new CommitRequest(tj, BOTH, st1, List.of(y), List.of());
        CommitRequest tjAtX = new CommitRequest(tj, BOTH, st0, List.of(), List.of(Write.put(x, Bytes.utf8("j"))));

        append(0, tiAtX);
        append(0, tjAtX);
        append(1, tjAtY);
        append(1, tiAtY);

        for (String node : cluster.nodeIds()) {
            for (int partition : BOTH) {
                for (TxId tid : List.of(ti, tj)) {
                    Outcome outcome = awaitOutcome(node, partition, tid);
                    assertFalse(outcome.committed(), tid + " committed at partition " + partition + " on " + node);
                    assertEquals(
                            AbortReason.Kind.WRITTEN_KEY_READ_CONCURRENTLY,
                            outcome.reason().kind(),
                            "aborted by the stronger test: " + outcome.reason());
                }
            }
        }
    }

    /** The same conflict raced through the real client many times: at most one of each pair ever commits. */
    @Test
    void racingFigureOnePairsNeverBothCommit() throws Exception {
        DuroClient first = cluster.newClient();
        DuroClient second = cluster.newClient();
        for (int round = 0; round < 20; round++) {
            Transaction ti = first.begin();
            Transaction tj = second.begin();
            ti.get(x);
            tj.get(y);
            ti.get(y);
            tj.get(x);
            ti.put(y, Bytes.utf8("i" + round));
            tj.put(x, Bytes.utf8("j" + round));
            CompletableFuture<Boolean> iCommitted = committed(ti);
            CompletableFuture<Boolean> jCommitted = committed(tj);
            boolean both = iCommitted.get(30, TimeUnit.SECONDS) && jCommitted.get(30, TimeUnit.SECONDS);
            assertFalse(both, "round " + round + ": both transactions of a Figure 1 pair committed");
        }
    }

    private static CompletableFuture<Boolean> committed(Transaction transaction) {
        return transaction.commitAsync().handle((result, failure) -> {
            if (failure == null) {
                return true;
            }
            Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof TransactionAbortedException) {
                return false;
            }
            throw new AssertionError("commit failed otherwise", cause);
        });
    }

    /**
     * A coordinator that dies after appending to partition 0 but before partition 1 (S-DUR §IV-F): partition 0
     * waits for a vote that never comes, proposes an abort request into partition 1's log, and both decide abort;
     * nothing stays pending. The late commit request is answered from the tombstone.
     */
    @Test
    void coordinatorLostBetweenBroadcastsIsDecidedByAnAbortRequest() throws Exception {
        TxId orphan = new TxId(0xDEAD, 1);
        long st0 = replica("n1", 0).snapshotCounter();
        append(0, new CommitRequest(orphan, BOTH, st0, List.of(x), List.of(Write.put(x, Bytes.utf8("orphan")))));

        for (String node : cluster.nodeIds()) {
            Outcome at0 = awaitOutcome(node, 0, orphan);
            assertFalse(at0.committed());
            assertEquals(AbortReason.Kind.ABORT_REQUESTED, at0.reason().kind());
            assertEquals(1, at0.reason().partition(), "partition 1 never saw it and aborted it");
            Outcome at1 = awaitOutcome(node, 1, orphan);
            assertFalse(at1.committed());
        }
        Await.until("nothing pending", () -> {
            for (String node : cluster.nodeIds()) {
                for (int partition : BOTH) {
                    if (replica(node, partition).pendingCount() != 0) {
                        return Await.Poll.notYet(node + " partition " + partition + " has pending transactions");
                    }
                }
            }
            return Await.Poll.done(true);
        });

        long st1 = replica("n1", 1).snapshotCounter();
        append(1, new CommitRequest(orphan, BOTH, st1, List.of(), List.of(Write.put(y, Bytes.utf8("late")))));
        assertFalse(awaitOutcome("n1", 1, orphan).committed(), "the late part is answered from the tombstone");
        assertEquals(null, cluster.newClient().get(x.toUtf8()), "nothing of the orphan is visible");
    }

    /**
     * Global transactions write the same counter to x and y while read-only transactions read both: each must
     * see equal values (a global transaction entirely or not at all), in both consistency modes.
     */
    @Test
    void readOnlyTransactionsNeverSeeHalfOfAGlobalTransaction() throws Exception {
        DuroClient writer = cluster.newClient();
        DuroClient reader = cluster.newClient();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        Thread writes = new Thread(
                () -> {
                    for (long n = 1; writing.get() && n <= 10_000; n++) {
                        long value = n;
                        writer.transact(tx -> {
                            tx.putLong(x.toUtf8(), value);
                            tx.putLong(y.toUtf8(), value);
                            return null;
                        });
                        written.set(n);
                    }
                },
                "global-writer");
        writes.start();
        List<String> torn = new ArrayList<>();
        long reads = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        try {
            while (System.nanoTime() < deadline && torn.isEmpty()) {
                ReadConsistency consistency = reads % 2 == 0 ? ReadConsistency.SNAPSHOT : ReadConsistency.LINEARIZABLE;
                long[] seen =
                        reader.readOnly(consistency, ro -> new long[] {ro.getLong(x.toUtf8()), ro.getLong(y.toUtf8())});
                if (seen[0] != seen[1]) {
                    torn.add(consistency + " saw x=" + seen[0] + " y=" + seen[1]);
                }
                reads++;
            }
        } finally {
            writing.set(false);
            writes.join(30_000);
        }
        assertTrue(torn.isEmpty(), "read-only transactions saw half of a global transaction: " + torn);
        assertTrue(written.get() > 5 && reads > 5, "the race ran: " + written.get() + " writes, " + reads + " reads");

        // Linearizable: another client's read-only transaction, begun after a commit returned, sees it.
        long last = written.get();
        long seen = reader.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.getLong(x.toUtf8()));
        assertEquals(last, seen, "a linearizable read-only transaction missed a commit that had returned");
    }
}
