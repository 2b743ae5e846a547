package dev.duro.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotVectorTrackerTest {
    /** Partition 0 at {@code counter}, having committed globals up to number {@code onOne} at partition 1. */
    private static Frontier zero(long counter, long onOne) {
        return new Frontier(0, counter, List.of(0L, onOne));
    }

    private static Frontier one(long counter, long onZero) {
        return new Frontier(1, counter, List.of(onZero, 0L));
    }

    @Test
    void aTrackerHasHeardFromEveryPartitionOnlyOnceEachPublished() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        assertFalse(tracker.heardFromEveryPartition());

        tracker.update(zero(10, 7));

        assertFalse(tracker.heardFromEveryPartition());
        assertArrayEquals(new long[] {0, 0}, tracker.cut(), "partition 0 at 10 depends on partition 1 at 7");

        tracker.update(one(0, 0)); // an idle partition publishes too
        assertTrue(tracker.heardFromEveryPartition());
    }

    /**
     * The gap that retention used to open (docs/window-safety.md): G is 5 at partition 0 and 7 at partition 1.
     * A fresh tracker hears partition 0 at 10, long after partition 0 forgot G, and partition 1 at 6, before G
     * finished there. With a list of retained globals the tracker knew nothing of G and served [10, 6]; the
     * dependency vector names G's number at partition 1 whatever partition 0 still retains.
     */
    @Test
    void aFreshTrackerNeverSplitsAGlobalThePublisherForgot() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);

        tracker.update(zero(10, 7));
        tracker.update(one(6, 0));

        assertArrayEquals(new long[] {0, 6}, tracker.cut());

        tracker.update(one(9, 5));

        assertArrayEquals(new long[] {10, 9}, tracker.cut());
    }

    @Test
    void aPartitionIsHeldAtItsNewestPointThatTheOthersCover() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(zero(3, 0));
        tracker.update(zero(5, 2)); // a global at 4 here and 2 there
        tracker.update(one(1, 0));

        assertArrayEquals(new long[] {3, 1}, tracker.cut());

        tracker.update(one(2, 4));

        assertArrayEquals(new long[] {5, 2}, tracker.cut());
    }

    @Test
    void globalsOrderedDifferentlyAtTwoPartitionsLimitTheCutToWhereBothAreWhole() {
        // T1 is 1 at partition 0 and 2 at partition 1; T2 is 2 at partition 0 and 1 at partition 1.
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(zero(1, 2));
        tracker.update(zero(2, 2));
        tracker.update(one(1, 2));

        assertArrayEquals(new long[] {0, 0}, tracker.cut(), "T2 needs partition 0 at 2, where T1 needs 1 at 2");

        tracker.update(one(2, 2));

        assertArrayEquals(new long[] {2, 2}, tracker.cut());
    }

    @Test
    void lateReorderedAndDuplicateFrontiersNeverLowerTheCut() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(zero(10, 9));
        tracker.update(one(9, 10));
        assertArrayEquals(new long[] {10, 9}, tracker.cut());

        tracker.update(zero(10, 9));
        tracker.update(one(3, 0));
        tracker.update(zero(4, 1));

        assertArrayEquals(new long[] {10, 9}, tracker.cut());
        assertEquals(0, tracker.pointsAboveCut());
    }

    @Test
    void pointsAreBoundedAndTheNewestStays() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        for (long counter = 1; counter <= 1_000; counter++) {
            tracker.update(zero(counter, counter)); // partition 1 is silent: nothing can be included
        }
        assertTrue(tracker.pointsAboveCut() <= SnapshotVectorTracker.POINTS_MAX);
        assertEquals(1_000, tracker.frontierAt(0));

        tracker.update(one(1_000, 0));

        assertArrayEquals(new long[] {1_000, 1_000}, tracker.cut());
    }

    /**
     * Two trackers (two nodes, or one restarted) can compute incomparable cuts, and two read-only transactions at
     * them would see two independent local commits in opposite orders (a long fork; found by the simulation once
     * trackers restarted). They read the chain of cuts partition 0's log holds instead, which only grows.
     */
    @Test
    void readOnlyTransactionsReadTheChainOfCutsWhichOnlyGrows() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(one(5, 0));
        tracker.update(new Frontier(0, 8, List.of(), List.of(6L, 4L)));
        assertArrayEquals(new long[] {6, 4}, tracker.chainCut());
        assertArrayEquals(new long[] {8, 5}, tracker.cut(), "what the chain is fed with");

        tracker.update(new Frontier(0, 8, List.of(), List.of(3L, 1L))); // a lagging replica's older chain cut
        assertArrayEquals(new long[] {6, 4}, tracker.chainCut());

        tracker.update(new Frontier(0, 9, List.of(), List.of(8L, 5L)));
        assertArrayEquals(new long[] {8, 5}, tracker.chainCut());
    }

    @Test
    void aFrontierNamingAnUnknownPartitionIsRejected() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        assertThrows(IllegalArgumentException.class, () -> tracker.update(new Frontier(2, 1, List.of())));
        assertThrows(IllegalArgumentException.class, () -> tracker.update(new Frontier(0, 1, List.of(0L, 0L, 3L))));
    }
}
