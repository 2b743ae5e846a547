package dev.duro.consensus;

import java.nio.file.Path;

/**
 * A partition replica's state-machine snapshot on disk, complete and durable.
 *
 * @param term the Raft term of the last log entry it holds
 * @param index that entry's log index
 * @param md5 its MD5 digest (16 bytes)
 */
public record SnapshotFile(Path file, long term, long index, long bytes, byte[] md5) {}
