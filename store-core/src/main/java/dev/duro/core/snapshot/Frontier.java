package dev.duro.core.snapshot;

import java.util.List;

/**
 * What a partition publishes for the vector-of-snapshots service: its snapshot counter, and every global
 * transaction it committed with a number in {@code (publishedFrom, snapshotCounter]}.
 *
 * @param publishedFrom where the list of globals starts: the counter of the publisher's previous frontier, or 0
 *     for a full one. It lets a receiver see that frontiers overtook each other and left a gap it must not
 *     cover yet.
 */
public record Frontier(int partition, long publishedFrom, long snapshotCounter, List<GlobalCommit> globals) {
    public Frontier {
        globals = List.copyOf(globals);
        if (publishedFrom < 0 || snapshotCounter < 0) {
            throw new IllegalArgumentException(
                    "frontier counters must be >= 0: from " + publishedFrom + ", SC " + snapshotCounter);
        }
    }
}
