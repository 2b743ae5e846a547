package dev.duro.consensus;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.raftlog.segmented.LogSegment;
import org.apache.ratis.server.raftlog.segmented.LogSegmentPath;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica starting from a snapshot newer than the end of its own Raft log drops that log before Ratis opens it.
 *
 * <p>It happens when a replica is stopped after it fetched the leader's snapshot ({@link SnapshotCatchUp}) and
 * before Ratis installed it (Ratis syncs its log with an installed snapshot only on the leader's next notification,
 * and writes that sync to disk later still). Restarted, the replica restores the fetched snapshot, and Ratis opens a
 * log whose open segment ends before it: Ratis drops the closed segments the snapshot covers but keeps the open one,
 * so it expects the entry after that segment's end and refuses every append the leader sends from after the
 * snapshot. The replica failed "to append" for good, and its partition, with another replica down, stopped
 * (docs/replication.md).
 *
 * <p>Every entry in such a log is at or before the snapshot's index, and the snapshot holds every committed entry up
 * to there: an entry there that is not in it was never committed and would be overwritten by the leader anyway. So
 * the log is dropped whole, which leaves what Ratis leaves after installing a snapshot: no entries, the next one
 * expected right after the snapshot. A log reaching the snapshot is left alone; Ratis replays its tail as usual.
 */
final class LogBehindSnapshot {
    /** The replica's logger: its lines read as the replica's start-up. */
    private static final Logger LOG = LoggerFactory.getLogger(PartitionStateMachine.class);

    /** Ratis's names for a closed segment (its first and last index) and the open one (its first index). */
    private static final Pattern CLOSED = Pattern.compile("log_(\\d+)-(\\d+)");

    private static final Pattern OPEN = Pattern.compile("log_inprogress_(\\d+)(?:\\..*)?");

    private LogBehindSnapshot() {}

    /**
     * Deletes the log segments of {@code storage} if the last entry they hold is before {@code snapshotIndex}.
     * {@code entryBytesMax} bounds one entry as Ratis reads it back.
     */
    static void dropIfBehind(int partition, RaftStorage storage, long snapshotIndex, SizeInBytes entryBytesMax)
            throws IOException {
        List<LogSegmentPath> segments = LogSegmentPath.getLogSegmentPaths(storage);
        if (segments.isEmpty()) {
            return;
        }
        long lastInLog = lastIndex(segments.get(segments.size() - 1), entryBytesMax);
        if (lastInLog >= snapshotIndex) {
            return;
        }
        for (LogSegmentPath segment : segments) {
            Files.deleteIfExists(segment.getPath());
        }
        Path folder = storage.getStorageDir().getCurrentDir().toPath();
        try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
            directory.force(true);
        }
        LOG.warn(
                "partition {}: the Raft log ends at index {}, before the snapshot at index {} restored at start-up"
                        + " (fetched from the leader, the replica stopped before Ratis installed it); its {}"
                        + " segments are deleted, the snapshot holds every committed entry they could add",
                partition,
                lastInLog,
                snapshotIndex,
                segments.size());
    }

    /** The index of the last entry in {@code segment}, read from the file if it is still open. */
    private static long lastIndex(LogSegmentPath segment, SizeInBytes entryBytesMax) throws IOException {
        String name = String.valueOf(segment.getPath().getFileName());
        Matcher closed = CLOSED.matcher(name);
        if (closed.matches()) {
            return Long.parseLong(closed.group(2));
        }
        Matcher open = OPEN.matcher(name);
        if (!open.matches()) {
            throw new IOException("Ratis listed " + name + " as a log segment, but its name is not one");
        }
        // A torn last entry (the process died writing it) ends the count: Ratis drops it the same way.
        int entries = LogSegment.readSegmentFile(
                segment.getPath().toFile(),
                segment.getStartEnd(),
                entryBytesMax,
                RaftServerConfigKeys.Log.CorruptionPolicy.WARN_AND_RETURN,
                null,
                null);
        return Long.parseLong(open.group(1)) + entries - 1;
    }
}
