package dev.duro.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.TxId;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SerializabilityCheckerTest {
    private static final TxId T1 = new TxId(1, 1);
    private static final TxId T2 = new TxId(2, 1);
    private static final TxId T3 = new TxId(3, 1);

    private static TransactionRecord.Read read(String key, long version, TxId writer) {
        return new TransactionRecord.Read(key, version, writer);
    }

    private static TransactionRecord.Read initial(String key) {
        return new TransactionRecord.Read(key, 0, null);
    }

    private static TransactionRecord.Write write(String key, long version) {
        return new TransactionRecord.Write(key, version);
    }

    private static TransactionRecord.Scan scan(String prefix, long snapshot, TransactionRecord.Read... found) {
        return new TransactionRecord.Scan(KeyRange.prefix(Bytes.utf8(prefix)), snapshot, List.of(found));
    }

    /**
     * Write skew through predicates: each counts the doctors on call (finds one) and inserts another, both from the
     * same snapshot. No key is read and written by both, yet the inserts are phantoms of each other's scan.
     */
    @Test
    void detectsPhantomsAsAnAntiDependencyCycleThroughAbsentKeys() {
        TransactionRecord seed = new TransactionRecord(T3, List.of(), List.of(write("oncall/alice", 1)));
        TransactionRecord bob = new TransactionRecord(
                T1,
                List.of(),
                List.of(write("oncall/bob", 2)),
                List.of(scan("oncall/", 1, new TransactionRecord.Read("oncall/alice", 1, T3, 1))));
        TransactionRecord carol = new TransactionRecord(
                T2,
                List.of(),
                List.of(write("oncall/carol", 3)),
                List.of(scan("oncall/", 1, new TransactionRecord.Read("oncall/alice", 1, T3, 1))));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(seed, bob, carol));

        assertFalse(result.serializable());
        assertEquals(Set.of(T1, T2), Set.copyOf(result.cycleTransactions()), result::describe);
        assertTrue(result.describe().contains("rw(oncall/bob)"), result::describe);
        // Had carol scanned after bob's insert and seen it, the history would be serial.
        TransactionRecord later = new TransactionRecord(
                T2,
                List.of(),
                List.of(write("oncall/carol", 3)),
                List.of(scan(
                        "oncall/",
                        2,
                        new TransactionRecord.Read("oncall/alice", 1, T3, 2),
                        new TransactionRecord.Read("oncall/bob", 2, T1, 2))));
        assertTrue(SerializabilityChecker.check(List.of(seed, bob, later)).serializable());
    }

    @Test
    void aScanThatMissedAKeyItsSnapshotHoldsIsAnAnomaly() {
        TransactionRecord writer = new TransactionRecord(T1, List.of(), List.of(write("user/a", 1)));
        TransactionRecord scanner = new TransactionRecord(T2, List.of(), List.of(), List.of(scan("user/", 1)));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(writer, scanner));

        assertFalse(result.serializable());
        assertTrue(result.anomalies().get(0).contains("user/a"), result::describe);
    }

    @Test
    void acceptsSerialChainOfReadsAndWrites() {
        TransactionRecord first = new TransactionRecord(T1, List.of(initial("x")), List.of(write("x", 1)));
        TransactionRecord second = new TransactionRecord(
                T2, List.of(read("x", 1, T1), initial("y")), List.of(write("x", 2), write("y", 2)));
        TransactionRecord reader = new TransactionRecord(T3, List.of(read("x", 2, T2), read("y", 2, T2)), List.of());

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(first, second, reader));

        assertTrue(result.serializable(), result::describe);
    }

    @Test
    void acceptsReaderOfOldSnapshotThatPrecedesLaterWriters() {
        // T3 read x before T1 wrote it: serializable as T3, T1, T2.
        TransactionRecord first = new TransactionRecord(T1, List.of(initial("x")), List.of(write("x", 1)));
        TransactionRecord second = new TransactionRecord(T2, List.of(read("x", 1, T1)), List.of(write("x", 2)));
        TransactionRecord oldReader = new TransactionRecord(T3, List.of(initial("x")), List.of());

        assertTrue(
                SerializabilityChecker.check(List.of(first, second, oldReader)).serializable());
    }

    @Test
    void detectsFigureOneAntiDependencyCycle() {
        // S-DUR Figure 1: t_i reads x and writes y, t_j reads y and writes x, both from the initial snapshot.
        TransactionRecord ti = new TransactionRecord(T1, List.of(initial("x"), initial("y")), List.of(write("y", 2)));
        TransactionRecord tj = new TransactionRecord(T2, List.of(initial("y"), initial("x")), List.of(write("x", 2)));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(ti, tj));

        assertFalse(result.serializable());
        assertEquals(2, result.cycle().size(), result::describe);
        assertTrue(result.cycle().stream().allMatch(edge -> edge.kind() == SerializabilityChecker.EdgeKind.RW));
        assertEquals(Set.of(T1, T2), Set.copyOf(result.cycleTransactions()));
        assertEquals(
                Set.of("x", "y"),
                result.cycle().stream().map(SerializabilityChecker.Edge::key).collect(Collectors.toSet()));
    }

    @Test
    void detectsLostUpdate() {
        // Both read x at the initial version and both wrote it: ww one way, rw the other.
        TransactionRecord first = new TransactionRecord(T1, List.of(initial("x")), List.of(write("x", 1)));
        TransactionRecord second = new TransactionRecord(T2, List.of(initial("x")), List.of(write("x", 2)));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(first, second));

        assertFalse(result.serializable());
        assertEquals(Set.of(T1, T2), Set.copyOf(result.cycleTransactions()));
    }

    @Test
    void detectsWriteWriteCycleAcrossKeys() {
        TransactionRecord first = new TransactionRecord(T1, List.of(), List.of(write("x", 1), write("y", 2)));
        TransactionRecord second = new TransactionRecord(T2, List.of(), List.of(write("x", 2), write("y", 1)));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(first, second));

        assertTrue(result.cycle().stream().allMatch(edge -> edge.kind() == SerializabilityChecker.EdgeKind.WW));
        assertFalse(result.cycle().isEmpty());
    }

    @Test
    void detectsFracturedReadOfGlobalTransaction() {
        // T1 wrote x and y atomically; T2 saw the new x but the old y.
        TransactionRecord global =
                new TransactionRecord(T1, List.of(initial("x"), initial("y")), List.of(write("x", 1), write("y", 1)));
        TransactionRecord reader = new TransactionRecord(T2, List.of(read("x", 1, T1), initial("y")), List.of());

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(global, reader));

        assertEquals(2, result.cycle().size(), result::describe);
        assertTrue(result.describe().contains("-wr(x)->"), result::describe);
        assertTrue(result.describe().contains("-rw(y)->"), result::describe);
    }

    @Test
    void findsCycleThroughLongerPath() {
        TxId t4 = new TxId(4, 1);
        // T1 -wr(a)-> T2 -wr(b)-> T3 -wr(c)-> T4 -wr(d)-> T1
        TransactionRecord t1 =
                new TransactionRecord(T1, List.of(initial("a"), read("d", 1, t4)), List.of(write("a", 1)));
        TransactionRecord t2 = new TransactionRecord(T2, List.of(read("a", 1, T1)), List.of(write("b", 1)));
        TransactionRecord t3 = new TransactionRecord(T3, List.of(read("b", 1, T2)), List.of(write("c", 1)));
        TransactionRecord last =
                new TransactionRecord(t4, List.of(read("c", 1, T3), initial("d")), List.of(write("d", 1)));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(t1, t2, t3, last));

        assertEquals(Set.of(T1, T2, T3, t4), Set.copyOf(result.cycleTransactions()), result::describe);
    }

    @Test
    void reportsReadOfVersionNobodyCommitted() {
        TransactionRecord reader = new TransactionRecord(T1, List.of(read("x", 7, T2)), List.of());

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(reader));

        assertFalse(result.serializable());
        assertTrue(result.anomalies().get(0).contains("no committed transaction installed"), result::describe);
    }

    @Test
    void reportsValueAttributedToWrongWriter() {
        TransactionRecord writer = new TransactionRecord(T1, List.of(initial("x")), List.of(write("x", 1)));
        TransactionRecord reader = new TransactionRecord(T2, List.of(read("x", 1, T3)), List.of());

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(writer, reader));

        assertFalse(result.serializable());
        assertTrue(result.cycle().isEmpty());
        assertEquals(1, result.anomalies().size(), result::describe);
    }

    @Test
    void attributesReadOfAbsentKeyToTheDeletionItsSnapshotShows() {
        // T2 deleted x at version 3 (the store kept nothing, x was absent); T3 read "absent" at snapshot 5 and
        // got version 0 back. With the snapshot known, T3 read T2's deletion, so T3 follows T2: no cycle even
        // though T3 overwrote x later.
        TransactionRecord deleter =
                new TransactionRecord(T2, List.of(initial("x")), List.of(new TransactionRecord.Write("x", 3, true)));
        TransactionRecord reader =
                new TransactionRecord(T3, List.of(new TransactionRecord.Read("x", 0, null, 5)), List.of(write("x", 7)));

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(deleter, reader));

        assertTrue(result.serializable(), result::describe);
    }

    @Test
    void reportsReadThatMissedTheNewestVersionAtItsSnapshot() {
        TransactionRecord first = new TransactionRecord(T1, List.of(initial("x")), List.of(write("x", 1)));
        TransactionRecord second = new TransactionRecord(T2, List.of(read("x", 1, T1)), List.of(write("x", 2)));
        TransactionRecord stale =
                new TransactionRecord(T3, List.of(new TransactionRecord.Read("x", 1, T1, 4)), List.of());

        SerializabilityChecker.Result result = SerializabilityChecker.check(List.of(first, second, stale));

        assertFalse(result.serializable());
        assertTrue(
                result.anomalies().get(0).contains("newest committed version at that snapshot is 2"), result::describe);
    }

    @Test
    void reportsAbsentReadWhenTheSnapshotShowsAValue() {
        TransactionRecord writer = new TransactionRecord(T1, List.of(initial("x")), List.of(write("x", 1)));
        TransactionRecord reader =
                new TransactionRecord(T2, List.of(new TransactionRecord.Read("x", 0, null, 3)), List.of());

        assertFalse(SerializabilityChecker.check(List.of(writer, reader)).serializable());
    }
}
