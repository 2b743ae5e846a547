package dev.duro.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.PartitionEngine;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * S-DUR's Figure 1 on real engines: t_i reads x and reads+writes y; t_j reads y and reads+writes x; partition
 * Px delivers t_i then t_j, partition Py delivers t_j then t_i. The naive certification of §IV-B commits both,
 * which is not serializable; the stronger test of §IV-C aborts both.
 */
class Figure1Test {
    private static final int PX = 0;
    private static final int PY = 1;
    private static final List<Integer> BOTH = List.of(PX, PY);
    private static final Bytes X = Bytes.utf8("x");
    private static final Bytes Y = Bytes.utf8("y");
    private static final TxId TI = new TxId(1, 1);
    private static final TxId TJ = new TxId(2, 1);

    /** One engine per partition; votes are carried at once, outcomes remembered per partition. */
    private static final class TwoPartitions {
        private final PartitionEngine[] engines = new PartitionEngine[2];
        private final List<Map<TxId, Outcome>> outcomes = List.of(new HashMap<>(), new HashMap<>());

        TwoPartitions(CertifierSettings certification) {
            for (int p : BOTH) {
                engines[p] = new PartitionEngine(p, EngineSettings.DEFAULT.withCertification(certification));
                engines[p].setDesignatedVoter(true);
            }
        }

        VersionedValue read(int partition, Bytes key, long snapshot) {
            return engines[partition].read(key, snapshot);
        }

        void deliver(int partition, Command command) {
            ArrayDeque<Map.Entry<Integer, Effect>> work = new ArrayDeque<>();
            engines[partition].deliver(command).forEach(effect -> work.add(Map.entry(partition, effect)));
            while (!work.isEmpty()) {
                Map.Entry<Integer, Effect> next = work.poll();
                if (next.getValue() instanceof Effect.Reply reply) {
                    outcomes.get(next.getKey()).putIfAbsent(reply.outcome().tid(), reply.outcome());
                } else if (next.getValue() instanceof Effect.SendVote send) {
                    for (int target : send.to()) {
                        engines[target].receiveVote(send.vote()).forEach(effect -> work.add(Map.entry(target, effect)));
                    }
                }
            }
        }

        Outcome outcome(int partition, TxId tid) {
            Outcome outcome = outcomes.get(partition).get(tid);
            assertNotNull(outcome, tid + " undecided at partition " + partition);
            return outcome;
        }
    }

    /** What the two clients read and what they ask to commit, with every snapshot at 0. */
    private record Figure1(CommitRequest tiAtX, CommitRequest tiAtY, CommitRequest tjAtX, CommitRequest tjAtY) {
        static Figure1 build() {
            Write tiWritesY = Write.put(Y, WrittenValues.by(TI));
            Write tjWritesX = Write.put(X, WrittenValues.by(TJ));
            return new Figure1(
                    new CommitRequest(TI, BOTH, 0, List.of(X), List.of()),
                    new CommitRequest(TI, BOTH, 0, List.of(Y), List.of(tiWritesY)),
                    new CommitRequest(TJ, BOTH, 0, List.of(X), List.of(tjWritesX)),
                    new CommitRequest(TJ, BOTH, 0, List.of(Y), List.of()));
        }
    }

    /** Px delivers t_i then t_j; Py delivers t_j then t_i (the clients' broadcasts interleaved). */
    private static TwoPartitions runFigure1(TwoPartitions cluster) {
        Figure1 figure = Figure1.build();
        cluster.deliver(PX, figure.tiAtX());
        cluster.deliver(PY, figure.tjAtY());
        cluster.deliver(PX, figure.tjAtX());
        cluster.deliver(PY, figure.tiAtY());
        return cluster;
    }

    @Test
    void naiveCertificationCommitsBothAndTheCheckerFindsTheCycle() {
        TwoPartitions cluster = new TwoPartitions(CertifierSettings.DEFAULT.withStrongerTestForGlobal(false));
        // Both execute on the initial snapshots before either commits.
        VersionedValue tiReadsX = cluster.read(PX, X, 0);
        VersionedValue tiReadsY = cluster.read(PY, Y, 0);
        VersionedValue tjReadsY = cluster.read(PY, Y, 0);
        VersionedValue tjReadsX = cluster.read(PX, X, 0);
        runFigure1(cluster);

        Outcome ti = cluster.outcome(PX, TI);
        Outcome tj = cluster.outcome(PX, TJ);
        assertTrue(ti.committed(), ti::toString);
        assertTrue(tj.committed(), tj::toString);
        assertEquals(ti, cluster.outcome(PY, TI));
        assertEquals(tj, cluster.outcome(PY, TJ));

        TransactionRecord tiRecord = new TransactionRecord(
                TI,
                List.of(readOf("x", tiReadsX), readOf("y", tiReadsY)),
                List.of(new TransactionRecord.Write("y", ti.versionAt(PY))));
        TransactionRecord tjRecord = new TransactionRecord(
                TJ,
                List.of(readOf("y", tjReadsY), readOf("x", tjReadsX)),
                List.of(new TransactionRecord.Write("x", tj.versionAt(PX))));
        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(tiRecord, tjRecord));

        assertFalse(result.serializable());
        assertEquals(Set.of(TI, TJ), Set.copyOf(result.cycleTransactions()), result::describe);
        assertTrue(result.cycle().stream().allMatch(edge -> edge.kind() == SerializabilityChecker.EdgeKind.RW));
    }

    @Test
    void strongerTestAbortsBoth() {
        TwoPartitions cluster = runFigure1(new TwoPartitions(CertifierSettings.DEFAULT));

        for (TxId tid : List.of(TI, TJ)) {
            for (int partition : BOTH) {
                Outcome outcome = cluster.outcome(partition, tid);
                assertFalse(outcome.committed(), outcome::toString);
                assertEquals(
                        AbortReason.Kind.WRITTEN_KEY_READ_CONCURRENTLY,
                        outcome.reason().kind());
            }
        }
        assertNull(cluster.read(PX, X, cluster.engines[PX].snapshotCounter()).value());
        assertNull(cluster.read(PY, Y, cluster.engines[PY].snapshotCounter()).value());
    }

    @Test
    void strongerTestStillCommitsOneWhenBothPartitionsDeliverInTheSameOrder() {
        TwoPartitions cluster = new TwoPartitions(CertifierSettings.DEFAULT);
        Figure1 figure = Figure1.build();
        cluster.deliver(PX, figure.tiAtX());
        cluster.deliver(PY, figure.tiAtY());
        cluster.deliver(PX, figure.tjAtX());
        cluster.deliver(PY, figure.tjAtY());

        assertTrue(cluster.outcome(PX, TI).committed());
        assertFalse(cluster.outcome(PY, TJ).committed());
    }

    private static TransactionRecord.Read readOf(String key, VersionedValue value) {
        return new TransactionRecord.Read(key, value.version(), WrittenValues.writerOf(value.value()));
    }
}
