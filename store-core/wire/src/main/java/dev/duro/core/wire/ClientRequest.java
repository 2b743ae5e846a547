package dev.duro.core.wire;

/**
 * A message a client sends to a server. The request id is chosen by the client and echoed in the reply, so
 * many requests can be in flight on one connection; clients number from 1 (0 marks "unknown" in error replies).
 */
public sealed interface ClientRequest extends Message
        permits ReadRequest,
                MultiReadRequest,
                CommitTransaction,
                ClusterInfoRequest,
                SnapshotVectorRequest,
                ReplicaStatusRequest,
                SnapshotFetchRequest,
                AuthenticateRequest,
                AdminRequest,
                ScanRequest {
    long requestId();
}
