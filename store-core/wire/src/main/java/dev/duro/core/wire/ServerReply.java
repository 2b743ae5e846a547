package dev.duro.core.wire;

/** A message a server sends to a client, answering the request with the same id. */
public sealed interface ServerReply extends Message
        permits ReadReply,
                MultiReadReply,
                OutcomeReply,
                ClusterInfoReply,
                ErrorReply,
                SnapshotVectorReply,
                ReplicaStatusReply,
                SnapshotOffer,
                AdminReply,
                ScanReply {
    long requestId();
}
