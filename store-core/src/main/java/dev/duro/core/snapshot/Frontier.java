package dev.duro.core.snapshot;

import java.util.List;

/**
 * What a partition publishes for the vector-of-snapshots service: a snapshot counter it has reached and, for
 * every other partition {@code q}, the highest number at {@code q} of any global transaction committed here at
 * or below that counter (docs/window-safety.md). A snapshot {@code s} of this partition can be combined with
 * snapshot {@code V[q]} of partition {@code q} iff {@code dependencies[q] <= V[q]}: every global included here is
 * then included there. The dependency vector is a running maximum, so a frontier is a self-contained fact: it
 * may be lost, repeated, reordered or arrive at a tracker that just started, and it never relies on a list of
 * transactions that the publisher may have stopped retaining.
 *
 * @param dependencies indexed by partition; missing entries (a shorter list) are 0, and the entry of
 *     {@code partition} itself is ignored
 * @param cutFloor the newest cut of the chain this partition's log holds ({@code CutAdvance}), indexed by
 *     partition; empty if its log holds none
 */
public record Frontier(int partition, long snapshotCounter, List<Long> dependencies, List<Long> cutFloor) {
    public Frontier(int partition, long snapshotCounter, List<Long> dependencies) {
        this(partition, snapshotCounter, dependencies, List.of());
    }

    public Frontier {
        dependencies = List.copyOf(dependencies);
        cutFloor = List.copyOf(cutFloor);
        if (partition < 0 || snapshotCounter < 0) {
            throw new IllegalArgumentException(
                    "frontier partition and counter must be >= 0: " + partition + ", SC " + snapshotCounter);
        }
        for (long dependency : dependencies) {
            if (dependency < 0) {
                throw new IllegalArgumentException("dependencies must be >= 0: " + dependencies);
            }
        }
        for (long snapshot : cutFloor) {
            if (snapshot < 0) {
                throw new IllegalArgumentException("cut floor must be >= 0: " + cutFloor);
            }
        }
    }

    /** The dependency on {@code other}: 0 if the list does not reach it. */
    public long dependencyOn(int other) {
        return other < dependencies.size() && other != partition ? dependencies.get(other) : 0;
    }
}
