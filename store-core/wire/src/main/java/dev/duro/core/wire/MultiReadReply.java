package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import dev.duro.core.VersionedValue;
import java.util.List;

/**
 * The answer to a {@link MultiReadRequest}: one value per key, in the request's order, all at {@code snapshot}.
 *
 * @param snapshot the snapshot every value was read at; the client fixes {@code st[partition]} to it
 */
public record MultiReadReply(long requestId, int partition, long snapshot, List<VersionedValue> values)
        implements ServerReply {
    public MultiReadReply {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshot >= 0, "snapshot must be >= 0: %s", snapshot);
        values = List.copyOf(values);
        checkArgument(!values.isEmpty(), "a multi-key read answers at least one value");
    }

    @Override
    public MessageType type() {
        return MessageType.MULTI_READ_REPLY;
    }
}
