package dev.duro.core.engine;

import dev.duro.core.Outcome;
import dev.duro.core.snapshot.Frontier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a partition publishes for the vector-of-snapshots service (docs/architecture.md §6): the dependency vector of
 * its frontier and the cut floor its log holds. Both are running maxima, functions of the log, never forgotten.
 *
 * <ul>
 *   <li>The dependency vector: for each partition {@code q}, the highest number at {@code q} of any global committed
 *       here at or below {@code SC}. Grows to the highest partition seen. It replaces a list of recent global
 *       commits (docs/window-safety.md), so a frontier stays a self-contained fact however little is retained.
 *   <li>The cut floor: the newest cut of the chain delivered in this log ({@link CutAdvance}); empty until one is.
 * </ul>
 */
final class DependencyFrontier {
    private final int partition;
    private long[] dependencies = new long[0];
    private long[] cutFloor = new long[0];

    DependencyFrontier(int partition) {
        this.partition = partition;
    }

    /** A global committed here, at the number it installs at: its numbers at the other participants count. */
    void addDependencies(Outcome committed) {
        List<Integer> participants = committed.participants();
        int highest = participants.get(participants.size() - 1);
        if (highest >= dependencies.length) {
            dependencies = Arrays.copyOf(dependencies, highest + 1);
        }
        for (int i = 0; i < participants.size(); i++) {
            int other = participants.get(i);
            if (other != partition) {
                dependencies[other] =
                        Math.max(dependencies[other], committed.versions().get(i));
            }
        }
    }

    /** The floor becomes the component-wise maximum of itself and the cut: consistent, and never lower. */
    void raiseCutFloor(CutAdvance advance) {
        List<Long> cut = advance.cut();
        if (cut.size() > cutFloor.length) {
            cutFloor = Arrays.copyOf(cutFloor, cut.size());
        }
        for (int q = 0; q < cut.size(); q++) {
            cutFloor[q] = Math.max(cutFloor[q], cut.get(q));
        }
    }

    /** The frontier at {@code snapshotCounter}, which must be this partition's {@code SC}. */
    Frontier frontier(long snapshotCounter) {
        return new Frontier(partition, snapshotCounter, boxed(dependencies), boxed(cutFloor));
    }

    private static List<Long> boxed(long[] values) {
        List<Long> list = new ArrayList<>(values.length);
        for (long value : values) {
            list.add(value);
        }
        return list;
    }

    /** The dependency vector's entry for this partition (0 if none): it must have finished here. */
    long ownEntry() {
        return partition < dependencies.length ? dependencies[partition] : 0;
    }

    /** The cut floor, a copy. */
    long[] cutFloor() {
        return cutFloor.clone();
    }

    /** The dependency vector itself, for the state codec. */
    long[] dependencies() {
        return dependencies;
    }

    void restore(long[] dependencyVector, long[] floor) {
        this.dependencies = dependencyVector.clone();
        this.cutFloor = floor.clone();
    }
}
