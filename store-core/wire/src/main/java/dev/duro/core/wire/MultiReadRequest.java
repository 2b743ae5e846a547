package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import java.util.List;

/**
 * Reads several keys of one partition at one snapshot, at any replica of it: a {@link ReadRequest} for many keys,
 * one round trip instead of one per key.
 *
 * @param partition the partition every key belongs to; a replica refuses keys of another
 * @param snapshot as in {@link ReadRequest}: the snapshot to read at, or {@link ReadRequest#LATEST}
 * @param minVersion as in {@link ReadRequest}: the client's session token for this partition, 0 for none
 * @param keys at least one; the answer lists their values in this order
 */
public record MultiReadRequest(long requestId, int partition, long snapshot, long minVersion, List<Bytes> keys)
        implements ClientRequest {
    public MultiReadRequest {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshot >= ReadRequest.LATEST, "snapshot must be >= 0 or LATEST: %s", snapshot);
        checkArgument(minVersion >= 0, "minVersion must be >= 0: %s", minVersion);
        keys = List.copyOf(keys);
        checkArgument(!keys.isEmpty(), "a multi-key read names at least one key");
    }

    public boolean readsLatest() {
        return snapshot == ReadRequest.LATEST;
    }

    @Override
    public MessageType type() {
        return MessageType.MULTI_READ_REQUEST;
    }
}
