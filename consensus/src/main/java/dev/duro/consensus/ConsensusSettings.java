package dev.duro.consensus;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A node's consensus settings. Units are in the names.
 *
 * @param storageDirectory where Ratis keeps the logs and snapshots of every group on this node
 * @param raftHost address the Raft (gRPC) endpoint binds to
 * @param raftPort its port
 * @param fsync sync the log to disk before acknowledging (default); false trades durability of the last few
 *     milliseconds on a power loss for latency
 * @param snapshotEveryEntries take a state-machine snapshot after this many log entries, then purge the log
 *     segments it covers (a segment is closed at 32 MB or when the term changes; the open one is kept)
 * @param batchCommandsMax the most commands in one log entry (group commit)
 * @param batchBytesMax the most bytes in one log entry
 * @param queuedBytesMax commands waiting for the next log entry, per partition, before submissions are refused
 *     as overloaded
 * @param requestTimeout how long one log append may take before it is retried
 */
public record ConsensusSettings(
        Path storageDirectory,
        String raftHost,
        int raftPort,
        boolean fsync,
        long snapshotEveryEntries,
        int batchCommandsMax,
        int batchBytesMax,
        long queuedBytesMax,
        Duration requestTimeout) {
    public ConsensusSettings {
        require(raftPort >= 0 && raftPort < 65536, "raft.port must be in [0, 65535]: " + raftPort);
        require(snapshotEveryEntries >= 1, "raft.snapshot-every-entries must be >= 1: " + snapshotEveryEntries);
        require(batchCommandsMax >= 1, "raft.batch-commands-max must be >= 1: " + batchCommandsMax);
        require(batchBytesMax >= 1024, "raft.batch-bytes-max must be >= 1024: " + batchBytesMax);
        require(queuedBytesMax >= batchBytesMax, "raft.queued-bytes-max must be >= raft.batch-bytes-max");
        require(!requestTimeout.isNegative() && !requestTimeout.isZero(), "raft.request-timeout must be positive");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public static ConsensusSettings defaults(Path storageDirectory, String raftHost, int raftPort) {
        return new ConsensusSettings(
                storageDirectory, raftHost, raftPort, true, 20_000, 1_000, 4 << 20, 64L << 20, Duration.ofSeconds(3));
    }

    public ConsensusSettings withSnapshotEveryEntries(long entries) {
        return new ConsensusSettings(
                storageDirectory,
                raftHost,
                raftPort,
                fsync,
                entries,
                batchCommandsMax,
                batchBytesMax,
                queuedBytesMax,
                requestTimeout);
    }

    public ConsensusSettings withFsync(boolean sync) {
        return new ConsensusSettings(
                storageDirectory,
                raftHost,
                raftPort,
                sync,
                snapshotEveryEntries,
                batchCommandsMax,
                batchBytesMax,
                queuedBytesMax,
                requestTimeout);
    }
}
