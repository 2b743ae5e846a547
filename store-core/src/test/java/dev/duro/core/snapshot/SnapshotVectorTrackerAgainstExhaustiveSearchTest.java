package dev.duro.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.SeededRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tracker's fixpoint computation finds exactly the greatest consistent cut that an exhaustive search over
 * every vector below the frontiers finds, after every frontier it takes in.
 */
class SnapshotVectorTrackerAgainstExhaustiveSearchTest {
    @Test
    void trackerFindsTheGreatestConsistentCutAfterEveryFrontier() {
        SeededRuns.forSeeds(5_000, 600, random -> {
            int partitions = 2 + random.nextInt(3);
            int lengthMax = partitions == 4 ? 4 : partitions == 3 ? 6 : 9;
            RandomHistory history = RandomHistory.generate(random, partitions, lengthMax);
            replay(random, history);
        });
    }

    /** Partitions advance their counters at random and publish frontiers; some frontiers arrive twice. */
    private static void replay(Random random, RandomHistory history) {
        int partitions = history.partitions;
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(partitions);
        long[] published = new long[partitions];
        List<Frontier> sent = new ArrayList<>();
        long[] previousCut = tracker.cut();
        while (!Arrays.equals(published, toLongs(history.lengths))) {
            Frontier frontier;
            if (!sent.isEmpty() && random.nextInt(5) == 0) {
                frontier = sent.get(random.nextInt(sent.size())); // a late duplicate
            } else {
                int p = random.nextInt(partitions);
                long counter = Math.min(history.lengths[p], published[p] + random.nextInt(3));
                frontier = frontierOf(history, p, published[p], counter);
                published[p] = counter;
                sent.add(frontier);
            }
            tracker.update(frontier);
            long[] frontiers = new long[partitions];
            for (int p = 0; p < partitions; p++) {
                frontiers[p] = tracker.frontierAt(p);
            }
            long[] cut = tracker.cut();
            assertArrayEquals(
                    greatestConsistentCut(history, frontiers),
                    cut,
                    "after " + frontier + " with frontiers " + Arrays.toString(frontiers));
            for (int p = 0; p < partitions; p++) {
                assertTrue(cut[p] >= previousCut[p], "cut moved backwards: " + Arrays.toString(cut));
            }
            previousCut = cut;
        }
        assertArrayEquals(toLongs(history.lengths), tracker.cut(), "everything published, everything readable");
        assertEquals(0, tracker.openGlobals(), "globals included everywhere are forgotten");
    }

    /** What partition {@code p} publishes when it moves from {@code from} to {@code counter}. */
    private static Frontier frontierOf(RandomHistory history, int p, long from, long counter) {
        List<GlobalCommit> fresh = new ArrayList<>();
        for (GlobalCommit global : history.globals) {
            long number = RandomHistory.numberAt(global, p);
            if (number > from && number <= counter) {
                fresh.add(global);
            }
        }
        fresh.sort((a, b) -> Long.compare(RandomHistory.numberAt(a, p), RandomHistory.numberAt(b, p)));
        return new Frontier(p, from, counter, fresh);
    }

    /**
     * Enumerates every vector {@code <= frontiers}, keeps those in which each committed global is included at all
     * of its partitions or at none, and takes their component-wise maximum. The result must itself be consistent.
     */
    static long[] greatestConsistentCut(RandomHistory history, long[] frontiers) {
        long[] best = new long[frontiers.length];
        long[] vector = new long[frontiers.length];
        do {
            if (consistent(history, vector)) {
                for (int p = 0; p < vector.length; p++) {
                    best[p] = Math.max(best[p], vector[p]);
                }
            }
        } while (next(vector, frontiers));
        assertTrue(consistent(history, best), "consistent cuts must be closed under maximum");
        return best;
    }

    private static boolean next(long[] vector, long[] frontiers) {
        for (int p = 0; p < vector.length; p++) {
            if (vector[p] < frontiers[p]) {
                vector[p]++;
                return true;
            }
            vector[p] = 0;
        }
        return false;
    }

    private static boolean consistent(RandomHistory history, long[] vector) {
        for (GlobalCommit global : history.globals) {
            int included = 0;
            for (int i = 0; i < global.partitions().size(); i++) {
                if (global.numbers().get(i) <= vector[global.partitions().get(i)]) {
                    included++;
                }
            }
            if (included != 0 && included != global.partitions().size()) {
                return false;
            }
        }
        return true;
    }

    private static long[] toLongs(int[] values) {
        return Arrays.stream(values).asLongStream().toArray();
    }
}
