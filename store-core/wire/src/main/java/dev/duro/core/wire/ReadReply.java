package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.VersionedValue;
import javax.annotation.Nullable;

/**
 * The answer to a {@link ReadRequest}.
 *
 * @param partition the partition that served the read
 * @param snapshot the snapshot the read was served at; the client fixes {@code st[partition]} to it
 * @param value the value, or null when the key is absent or deleted at that snapshot
 * @param version the commit number that wrote the value (or the delete); 0 when the key was never written
 */
public record ReadReply(long requestId, int partition, long snapshot, @Nullable Bytes value, long version)
        implements ServerReply {
    public ReadReply {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshot >= 0, "snapshot must be >= 0: %s", snapshot);
        checkArgument(version >= 0, "version must be >= 0: %s", version);
    }

    public static ReadReply of(long requestId, int partition, long snapshot, VersionedValue read) {
        return new ReadReply(requestId, partition, snapshot, read.value(), read.version());
    }

    public VersionedValue versionedValue() {
        return new VersionedValue(value, version);
    }

    @Override
    public MessageType type() {
        return MessageType.READ_REPLY;
    }
}
