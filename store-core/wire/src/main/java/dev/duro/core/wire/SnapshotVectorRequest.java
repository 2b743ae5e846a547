package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import java.util.List;

/**
 * Asks a server for a consistent cut (docs/architecture.md §6) to start a read-only transaction at.
 *
 * @param linearizable false: the greatest cut of the chain the server knows (serializable, possibly a few
 *     milliseconds stale). true: a cut that includes everything committed before the request arrived — the server
 *     confirms each partition's newest delivered transaction with a Raft ReadIndex and waits until its cut covers
 *     them.
 * @param minimum per partition, the least snapshot the cut must reach (the client's own commits and the cuts it
 *     read before), in partition order; empty for none. The server answers once its cut covers it, or after
 *     {@code server.read-wait-millis-max} with the cut it has, which the client then sees falls short (clients
 *     used to poll every 2 ms until a cut covered their session).
 */
public record SnapshotVectorRequest(long requestId, boolean linearizable, List<Long> minimum) implements ClientRequest {
    public SnapshotVectorRequest {
        minimum = List.copyOf(minimum);
        checkArgument(minimum.size() <= Limits.PARTITIONS_MAX, "at most one minimum per partition");
        for (long snapshot : minimum) {
            checkArgument(snapshot >= 0, "snapshots are non-negative: %s", snapshot);
        }
    }

    public SnapshotVectorRequest(long requestId, boolean linearizable) {
        this(requestId, linearizable, List.of());
    }

    public SnapshotVectorRequest(long requestId) {
        this(requestId, false);
    }

    public long[] minimumArray() {
        return minimum.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public MessageType type() {
        return MessageType.SNAPSHOT_VECTOR_REQUEST;
    }
}
