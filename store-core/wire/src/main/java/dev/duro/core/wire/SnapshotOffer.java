package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import java.util.Objects;

/**
 * The answer to a {@link SnapshotFetchRequest}: the snapshot that follows on the connection, {@code bytes} long.
 *
 * @param term the Raft term of the last log entry the snapshot holds
 * @param index the log index of that entry
 * @param md5 the MD5 digest of the snapshot's bytes (16 bytes), for the receiver to check what it got
 */
public record SnapshotOffer(long requestId, int partition, long term, long index, long bytes, Bytes md5)
        implements ServerReply {
    public static final int MD5_BYTES = 16;

    public SnapshotOffer {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(term >= 0 && index >= 0, "term and index must be >= 0: %s, %s", term, index);
        checkArgument(bytes >= 0, "snapshot size must be >= 0: %s", bytes);
        Objects.requireNonNull(md5, "md5");
        checkArgument(md5.size() == MD5_BYTES, "an MD5 digest has %s bytes: %s", MD5_BYTES, md5.size());
    }

    @Override
    public MessageType type() {
        return MessageType.SNAPSHOT_OFFER;
    }
}
