package dev.duro.consensus;

/**
 * A state-machine snapshot a replica wrote itself, for metrics.
 *
 * @param index the log index it holds the state at
 * @param bytes its size
 * @param frozenNanos how long freezing the state held the engine's lock
 * @param writtenNanos how long writing, syncing and registering it took, beside applying
 * @param longestTurnNanos the longest a turn of writing the store held the engine's lock
 */
public record SnapshotWritten(long index, long bytes, long frozenNanos, long writtenNanos, long longestTurnNanos) {}
