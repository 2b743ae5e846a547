package dev.duro.consensus;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Copies another node's newest snapshot of a partition to this node: how a replica behind its leader's purged log
 * catches up (docs/replication.md, "Catching up from a snapshot"). Implemented by the server over its own
 * connections, which stream a file from disk to disk; Ratis's own transfer keeps every chunk it sent in memory for
 * its timeout, hundreds of megabytes on a fast network.
 */
@FunctionalInterface
public interface SnapshotFetcher {
    /**
     * Copies {@code node}'s newest snapshot of {@code partition}, which must end at log index {@code indexMin} or
     * later, to {@code into} (created or replaced), checks its digest, and forces it to disk. Blocks until done.
     *
     * @throws IOException if the node cannot be reached, has no such snapshot, or the copy fails or is corrupt
     */
    SnapshotFile fetch(String node, int partition, long indexMin, Path into) throws IOException;

    /** For nodes that never fetch (tests of one replica per partition): every fetch fails. */
    SnapshotFetcher NONE = (node, partition, indexMin, into) -> {
        throw new IOException("this node fetches no snapshots");
    };
}
