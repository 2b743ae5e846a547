package dev.duro.core.wire;

/** Asks a server for the cluster's layout: what a client needs to route requests (see {@link ClusterInfoReply}). */
public record ClusterInfoRequest(long requestId) implements ClientRequest {
    @Override
    public MessageType type() {
        return MessageType.CLUSTER_INFO_REQUEST;
    }
}
