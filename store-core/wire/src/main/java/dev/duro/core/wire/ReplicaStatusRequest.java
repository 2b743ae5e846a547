package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;

/**
 * Asks a node for the state of its replica of one partition (an administration request): operators and tests
 * compare the answers of a partition's replicas to see whether they converged.
 */
public record ReplicaStatusRequest(long requestId, int partition) implements ClientRequest {
    public ReplicaStatusRequest {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
    }

    @Override
    public MessageType type() {
        return MessageType.REPLICA_STATUS_REQUEST;
    }
}
