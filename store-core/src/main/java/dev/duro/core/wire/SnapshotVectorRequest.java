package dev.duro.core.wire;

/** Asks a server for the greatest consistent cut it knows (DESIGN §6), to start a read-only transaction. */
public record SnapshotVectorRequest(long requestId) implements ClientRequest {
    @Override
    public MessageType type() {
        return MessageType.SNAPSHOT_VECTOR_REQUEST;
    }
}
