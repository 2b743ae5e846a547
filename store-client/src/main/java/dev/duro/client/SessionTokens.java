package dev.duro.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One client's session floor: per partition, the newest version it committed there or read a cut at. Its reads
 * never go below it, so a client sees its own commits and never an older snapshot than one it has seen. Thread-safe:
 * every transaction of the client records here.
 */
final class SessionTokens {
    /** Per partition, the newest version this client committed there: reads never go below it. */
    private final Map<Integer, Long> newest = new ConcurrentHashMap<>();

    /**
     * A read-only transaction read {@code cut}: later transactions of this client read no older snapshot (monotonic
     * reads). Cuts form one chain, so a later cut covering this one always comes.
     */
    void recordCut(long[] cut) {
        for (int partition = 0; partition < cut.length; partition++) {
            if (cut[partition] > 0) {
                newest.merge(partition, cut[partition], Math::max);
            }
        }
    }

    void recordCommit(CommitResult result) {
        result.versions().forEach((partition, version) -> newest.merge(partition, version, Math::max));
    }

    long at(int partition) {
        return newest.getOrDefault(partition, 0L);
    }

    Map<Integer, Long> copy() {
        return Map.copyOf(newest);
    }
}
