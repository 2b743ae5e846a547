package dev.duro.core.snapshot;

import java.util.List;

/**
 * What a partition publishes for the vector-of-snapshots service: its snapshot counter, and the global
 * transactions it committed with a number above the previously published frontier.
 */
public record Frontier(int partition, long snapshotCounter, List<GlobalCommit> globals) {
    public Frontier {
        globals = List.copyOf(globals);
    }
}
