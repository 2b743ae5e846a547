package dev.duro.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.TxId;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotVectorTrackerScenariosTest {
    private static final TxId T1 = new TxId(1, 1);

    /** T1 is number 3 at partition 0 and number 2 at partition 1. */
    private static final GlobalCommit GLOBAL = new GlobalCommit(T1, List.of(0, 1), List.of(3L, 2L));

    @Test
    void aGlobalVisibleAtOnePartitionOnlyHoldsThatPartitionJustBelowIt() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(new Frontier(0, 0, 5, List.of(GLOBAL)));
        tracker.update(new Frontier(1, 0, 1, List.of()));
        assertArrayEquals(new long[] {2, 1}, tracker.cut());
        tracker.update(new Frontier(1, 1, 2, List.of(GLOBAL)));
        assertArrayEquals(new long[] {5, 2}, tracker.cut());
    }

    @Test
    void aLateDuplicateOfATakenFrontierChangesNothing() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        Frontier first = new Frontier(0, 0, 3, List.of(GLOBAL));
        tracker.update(first);
        tracker.update(new Frontier(0, 3, 5, List.of()));
        tracker.update(new Frontier(1, 0, 4, List.of(GLOBAL)));
        assertArrayEquals(new long[] {5, 4}, tracker.cut());
        tracker.update(first);
        assertArrayEquals(new long[] {5, 4}, tracker.cut());
        assertEquals(0, tracker.openGlobals());
    }

    @Test
    void globalsOrderedDifferentlyAtTwoPartitionsLimitTheCutToWhereBothAreWhole() {
        // At partition 0, T1 (number 1) precedes T2 (number 2); at partition 1 the log delivered T2 first.
        GlobalCommit t1 = new GlobalCommit(T1, List.of(0, 1), List.of(1L, 2L));
        GlobalCommit t2 = new GlobalCommit(new TxId(1, 2), List.of(0, 1), List.of(2L, 1L));
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(new Frontier(0, 0, 2, List.of(t1, t2)));
        tracker.update(new Frontier(1, 0, 1, List.of(t2)));
        // Including T2 needs partition 0 at 2, which includes T1, which needs partition 1 at 2: not yet.
        assertArrayEquals(new long[] {0, 0}, tracker.cut());
        tracker.update(new Frontier(1, 1, 2, List.of(t1)));
        assertArrayEquals(new long[] {2, 2}, tracker.cut());
    }
}
