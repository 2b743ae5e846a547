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
 *     segments it covers (a segment is closed at {@link #logSegmentBytesMax()} or when the term changes; the open
 *     one is kept)
 * @param batchCommandsMax the most commands in one log entry (group commit)
 * @param batchBytesMax the most bytes in one log entry; it also sizes the Raft messages between nodes
 *     ({@link #messageBytesMax()})
 * @param queuedBytesMax commands waiting for the next log entry, per partition, before submissions are refused
 *     as overloaded
 * @param proposalsInFlightMax log entries a node may have proposed to one partition and not yet seen applied:
 *     1 waits a Raft round between entries (the largest batches); more keep the log busy while one commits
 * @param requestTimeout how long one log append may take before it is retried
 * @param batchLingerMicros the longest a log entry whose turn has come waits for more commands when the partition is
 *     busy (the entry before it carried more than one commit request), unless it is full or holds an abort request or
 *     a cut; it waits half the last entry's round, at most this: fewer, fuller entries for a little latency; 0
 *     proposes at once ({@link ProposalPipeline})
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
        int proposalsInFlightMax,
        Duration requestTimeout,
        long batchLingerMicros) {
    /** Bounds {@link #batchBytesMax} so that the message sizes derived from it stay well inside an int. */
    private static final int BATCH_BYTES_MAX_LIMIT = 256 << 20;

    /**
     * Room a Raft message needs besides its payload: the AppendEntries header (ids, term, indexes, commit infos),
     * each entry's own fields, and the group configuration an InstallSnapshot notification carries. Each is at most
     * kilobytes; a megabyte more covers an AppendEntries message that the appender fills up to {@link
     * #appenderBufferBytesMax()}. Snapshots do not travel in Raft messages (docs/replication.md).
     */
    private static final int MESSAGE_ENVELOPE_BYTES = 2 << 20;

    /** The default of {@link #proposalsInFlightMax} (docs/performance.md). */
    public static final int PROPOSALS_IN_FLIGHT_DEFAULT = 1;

    /** The default of {@link #batchLingerMicros} (docs/performance.md, "Waits as long as half a round"). */
    public static final int BATCH_LINGER_MICROS_DEFAULT = 2_000;

    /** The most {@link #batchLingerMicros} may be: a tenth of a second, far beyond any use. */
    public static final int BATCH_LINGER_MICROS_MAX = 100_000;

    /**
     * How many closed segments the log-entry cache may hold besides the open one: none, so that a segment's entries
     * leave the heap once it is closed, applied and sent to every follower (Ratis keeps a segment it still needs;
     * a lagging follower's entries are read back from disk). Entries kept longer than a few young collections are
     * copied by each and then promoted, only to die in the old generation (docs/performance.md, "Ratis's log-entry
     * cache, one segment").
     */
    public static final int LOG_CACHED_CLOSED_SEGMENTS_MAX = 0;

    public ConsensusSettings {
        require(raftPort >= 0 && raftPort < 65536, "raft.port must be in [0, 65535]: " + raftPort);
        require(snapshotEveryEntries >= 1, "raft.snapshot-every-entries must be >= 1: " + snapshotEveryEntries);
        require(batchCommandsMax >= 1, "raft.batch-commands-max must be >= 1: " + batchCommandsMax);
        require(
                batchBytesMax >= 1024 && batchBytesMax <= BATCH_BYTES_MAX_LIMIT,
                "raft.batch-bytes-max must be in [1024, " + BATCH_BYTES_MAX_LIMIT + "]: " + batchBytesMax);
        require(queuedBytesMax >= batchBytesMax, "raft.queued-bytes-max must be >= raft.batch-bytes-max");
        require(
                proposalsInFlightMax >= 1 && proposalsInFlightMax <= 64,
                "raft.proposals-in-flight-max must be in [1, 64]: " + proposalsInFlightMax);
        require(!requestTimeout.isNegative() && !requestTimeout.isZero(), "raft.request-timeout must be positive");
        require(
                batchLingerMicros >= 0 && batchLingerMicros <= BATCH_LINGER_MICROS_MAX,
                "raft.batch-linger-micros must be in [0, " + BATCH_LINGER_MICROS_MAX + "]: " + batchLingerMicros);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The largest gRPC message a node sends to or accepts from its peers, and the limit of the Raft clients that
     * propose batches: one payload of {@link #batchBytesMax} (a full log entry) plus its envelope.
     */
    public int messageBytesMax() {
        return batchBytesMax + MESSAGE_ENVELOPE_BYTES;
    }

    /** The most log entry bytes a leader gathers into one AppendEntries message to a follower. */
    public int appenderBufferBytesMax() {
        return batchBytesMax + (1 << 20);
    }

    /**
     * The size at which a partition's log segment is closed: a full log entry and a megabyte more, and at least 4 MB.
     * Segments are the unit of purging and of Ratis's log-entry cache, which holds the open segment's entries: the
     * smaller the segment, the sooner they leave the heap. At 16,000 workload-A transactions a second and an estimated
     * 100 bytes of log each, a 5 MB segment holds about three seconds.
     */
    public int logSegmentBytesMax() {
        return Math.max(4 << 20, batchBytesMax + (1 << 20));
    }

    /**
     * The most log-entry bytes Ratis keeps in memory per partition (the open segment, and closed ones only while a
     * follower or the state machine still needs them), whatever the log holds on disk. Ratis's own default, 200 MB
     * per group, let a node with two partitions of large values exhaust a 512 MB heap while a follower was down
     * (docs/replication.md, "Memory").
     */
    public long logCacheBytesMax() {
        return 4L * logSegmentBytesMax();
    }

    public static ConsensusSettings defaults(Path storageDirectory, String raftHost, int raftPort) {
        return new ConsensusSettings(
                storageDirectory,
                raftHost,
                raftPort,
                true,
                20_000,
                1_000,
                4 << 20,
                64L << 20,
                PROPOSALS_IN_FLIGHT_DEFAULT,
                Duration.ofSeconds(3),
                BATCH_LINGER_MICROS_DEFAULT);
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
                proposalsInFlightMax,
                requestTimeout,
                batchLingerMicros);
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
                proposalsInFlightMax,
                requestTimeout,
                batchLingerMicros);
    }
}
