package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import java.util.List;

/**
 * A consistent cut: one snapshot per partition, in partition order. Reading every partition at its entry sees
 * each global transaction at all of its partitions or at none.
 */
public record SnapshotVectorReply(long requestId, List<Long> cut) implements ServerReply {
    public SnapshotVectorReply {
        cut = List.copyOf(cut);
        checkArgument(!cut.isEmpty() && cut.size() <= Limits.PARTITIONS_MAX, "one entry per partition");
        for (long snapshot : cut) {
            checkArgument(snapshot >= 0, "snapshots are non-negative: %s", snapshot);
        }
    }

    public SnapshotVectorReply(long requestId, long[] cut) {
        this(requestId, java.util.Arrays.stream(cut).boxed().toList());
    }

    public long[] cutArray() {
        return cut.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public MessageType type() {
        return MessageType.SNAPSHOT_VECTOR_REPLY;
    }
}
