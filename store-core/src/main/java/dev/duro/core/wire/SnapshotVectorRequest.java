package dev.duro.core.wire;

/**
 * Asks a server for a consistent cut (DESIGN §6) to start a read-only transaction at.
 *
 * @param linearizable false: the greatest cut the server knows (serializable, possibly a few milliseconds
 *     stale). true: a cut that includes everything committed before the request arrived — the server confirms
 *     each partition's newest delivered transaction with a Raft ReadIndex and waits until its cut covers them.
 */
public record SnapshotVectorRequest(long requestId, boolean linearizable) implements ClientRequest {
    public SnapshotVectorRequest(long requestId) {
        this(requestId, false);
    }

    @Override
    public MessageType type() {
        return MessageType.SNAPSHOT_VECTOR_REQUEST;
    }
}
