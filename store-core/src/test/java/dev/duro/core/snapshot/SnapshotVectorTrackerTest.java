package dev.duro.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.TxId;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotVectorTrackerTest {
    /** A global transaction numbered 5 at partition 0 and 7 at partition 1. */
    private static final GlobalCommit G = new GlobalCommit(new TxId(1, 1), List.of(0, 1), List.of(5L, 7L));

    /**
     * A publisher's first frontier to a new destination lists only the globals it still retains. Partition 0
     * forgot G; until partition 1 is heard from, the cut [10, 0] would include G at partition 0 only.
     */
    @Test
    void aTrackerHasHeardFromEveryPartitionOnlyOnceEachPublished() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        assertFalse(tracker.heardFromEveryPartition());

        tracker.update(new Frontier(0, 0, 10, List.of())); // G (5 at partition 0) forgotten there

        assertFalse(tracker.heardFromEveryPartition(), "partition 1 is silent: " + Arrays.toString(tracker.cut()));

        tracker.update(new Frontier(1, 0, 0, List.of())); // an idle partition publishes too
        assertTrue(tracker.heardFromEveryPartition());
    }

    /**
     * Found by the simulation (many seeds fail without the fix): partition 0 publishes (0, 10] listing G, then (10, 20];
     * the second overtakes the first. Taking its counter at face value gave the cut [20, 6], which includes G at
     * partition 0 but not at partition 1 (a read-only transaction would see half of G), and the late first
     * frontier then made the tracker throw "consistent cut moved backwards".
     */
    @Test
    void frontierThatOvertakesItsPredecessorDoesNotCoverTheGap() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(new Frontier(1, 0, 6, List.of())); // partition 1 has not finished G yet

        tracker.update(new Frontier(0, 10, 20, List.of()));

        assertArrayEquals(new long[] {0, 6}, tracker.cut());
        assertEquals(0, tracker.frontierAt(0));

        tracker.update(new Frontier(0, 0, 10, List.of(G)));

        assertEquals(20, tracker.frontierAt(0));
        assertArrayEquals(new long[] {4, 6}, tracker.cut()); // G excluded at both

        tracker.update(new Frontier(1, 6, 9, List.of(G)));

        assertArrayEquals(new long[] {20, 9}, tracker.cut()); // G included at both
        assertEquals(0, tracker.openGlobals());
    }

    @Test
    void waitingFrontiersChainOnceTheGapFills() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(1);
        tracker.update(new Frontier(0, 20, 30, List.of()));
        tracker.update(new Frontier(0, 10, 20, List.of()));
        assertEquals(0, tracker.frontierAt(0));

        tracker.update(new Frontier(0, 0, 10, List.of()));

        assertEquals(30, tracker.frontierAt(0));
        assertArrayEquals(new long[] {30}, tracker.cut());
    }

    @Test
    void lateAndDuplicateFrontiersNeverLowerTheCut() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(new Frontier(0, 0, 10, List.of(G)));
        tracker.update(new Frontier(1, 0, 9, List.of(G)));
        long[] cut = tracker.cut();

        tracker.update(new Frontier(0, 0, 10, List.of(G)));
        tracker.update(new Frontier(1, 0, 3, List.of()));

        assertArrayEquals(cut, tracker.cut());
        assertArrayEquals(new long[] {10, 9}, cut);
    }

    @Test
    void fullFrontierFromANewPublisherFillsTheGapItCovers() {
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(2);
        tracker.update(new Frontier(1, 0, 9, List.of(G)));
        tracker.update(new Frontier(0, 15, 20, List.of())); // its predecessor was lost

        tracker.update(new Frontier(0, 0, 12, List.of(G))); // a lagging new leader: (12, 15] is still a gap

        assertArrayEquals(new long[] {12, 9}, tracker.cut());

        tracker.update(new Frontier(0, 0, 17, List.of(G))); // it caught up: covers the gap and joins (15, 20]

        assertArrayEquals(new long[] {20, 9}, tracker.cut());
    }
}
