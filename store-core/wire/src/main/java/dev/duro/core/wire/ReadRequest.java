package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import java.util.Objects;

/**
 * Reads one key at any replica of its partition (docs/architecture.md §2, step 1). The server finds the partition from the key.
 *
 * @param snapshot {@code st[p]}, the snapshot to read at, or {@link #LATEST} for the replica's current snapshot
 *     counter: the first read of a transaction at a partition fixes its snapshot there. A replica never answers
 *     from a snapshot older than the one asked for.
 * @param minVersion the client's session token for this partition: the replica must have applied this version
 *     before answering, so a client always reads its own committed writes; 0 for none
 */
public record ReadRequest(long requestId, Bytes key, long snapshot, long minVersion) implements ClientRequest {
    /** The snapshot value meaning "the replica's current snapshot". */
    public static final long LATEST = -1;

    public ReadRequest {
        Objects.requireNonNull(key, "key");
        checkArgument(snapshot >= LATEST, "snapshot must be >= 0 or LATEST: %s", snapshot);
        checkArgument(minVersion >= 0, "minVersion must be >= 0: %s", minVersion);
    }

    public static ReadRequest latest(long requestId, Bytes key, long minVersion) {
        return new ReadRequest(requestId, key, LATEST, minVersion);
    }

    public boolean readsLatest() {
        return snapshot == LATEST;
    }

    @Override
    public MessageType type() {
        return MessageType.READ_REQUEST;
    }
}
