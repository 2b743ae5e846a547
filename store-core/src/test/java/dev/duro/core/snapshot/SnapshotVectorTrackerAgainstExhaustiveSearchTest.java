package dev.duro.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.SeededRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The tracker's fixpoint computation finds exactly the greatest consistent cut that an exhaustive search over
 * every combination of the points it was sent finds, after every frontier it takes in. The search judges
 * consistency from the history's global transactions themselves, not from dependency vectors.
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

    /** Partitions advance their counters at random and publish frontiers; some arrive late, twice or reordered. */
    private static void replay(Random random, RandomHistory history) {
        int partitions = history.partitions;
        SnapshotVectorTracker tracker = new SnapshotVectorTracker(partitions);
        long[] published = new long[partitions];
        List<TreeSet<Long>> received = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            received.add(new TreeSet<>(List.of(0L)));
        }
        List<Frontier> sent = new ArrayList<>();
        long[] previousCut = tracker.cut();
        while (!Arrays.equals(published, toLongs(history.lengths))) {
            Frontier frontier;
            if (!sent.isEmpty() && random.nextInt(5) == 0) {
                frontier = sent.get(random.nextInt(sent.size())); // late, duplicated or overtaken
            } else {
                int p = random.nextInt(partitions);
                long counter = Math.min(history.lengths[p], published[p] + random.nextInt(3));
                frontier = frontierOf(history, p, counter);
                published[p] = counter;
                sent.add(frontier);
            }
            if (random.nextInt(4) == 0) {
                continue; // lost
            }
            tracker.update(frontier);
            received.get(frontier.partition()).add(frontier.snapshotCounter());
            long[] cut = tracker.cut();
            assertArrayEquals(
                    greatestConsistentCut(history, received), cut, "after " + frontier + " with points " + received);
            for (int p = 0; p < partitions; p++) {
                assertTrue(cut[p] >= previousCut[p], "cut moved backwards: " + Arrays.toString(cut));
            }
            previousCut = cut;
        }
        for (int p = 0; p < partitions; p++) {
            tracker.update(frontierOf(history, p, history.lengths[p]));
        }
        assertArrayEquals(toLongs(history.lengths), tracker.cut(), "everything published, everything readable");
        assertEquals(0, tracker.pointsAboveCut(), "points below the cut are forgotten");
    }

    /** What partition {@code p} publishes at {@code counter}: its dependency on every other partition. */
    static Frontier frontierOf(RandomHistory history, int p, long counter) {
        List<Long> dependencies = new ArrayList<>();
        for (int q = 0; q < history.partitions; q++) {
            long highest = 0;
            for (GlobalCommit global : history.globals) {
                long here = RandomHistory.numberAt(global, p);
                if (q != p && here > 0 && here <= counter) {
                    highest = Math.max(highest, RandomHistory.numberAt(global, q));
                }
            }
            dependencies.add(highest);
        }
        return new Frontier(p, counter, dependencies);
    }

    /**
     * Enumerates every combination of received points, keeps those in which each committed global is included at
     * all of its partitions or at none, and takes their component-wise maximum. The result must itself be
     * consistent.
     */
    static long[] greatestConsistentCut(RandomHistory history, List<TreeSet<Long>> points) {
        int partitions = points.size();
        List<List<Long>> choices = new ArrayList<>();
        for (TreeSet<Long> set : points) {
            choices.add(new ArrayList<>(set));
        }
        long[] best = new long[partitions];
        int[] index = new int[partitions];
        long[] vector = new long[partitions];
        do {
            for (int p = 0; p < partitions; p++) {
                vector[p] = choices.get(p).get(index[p]);
            }
            if (consistent(history, vector)) {
                for (int p = 0; p < partitions; p++) {
                    best[p] = Math.max(best[p], vector[p]);
                }
            }
        } while (next(index, choices));
        assertTrue(consistent(history, best), "consistent cuts must be closed under maximum");
        return best;
    }

    private static boolean next(int[] index, List<List<Long>> choices) {
        for (int p = 0; p < index.length; p++) {
            if (index[p] < choices.get(p).size() - 1) {
                index[p]++;
                return true;
            }
            index[p] = 0;
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
