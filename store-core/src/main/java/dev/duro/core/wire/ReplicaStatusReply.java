package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;

/**
 * The state of one replica of a partition. Replicas that applied the same log report the same
 * {@code snapshotCounter} and {@code contentDigest}.
 *
 * @param snapshotCounter the replica's {@code SC}: the newest snapshot readers may use
 * @param contentDigest a digest of every key's newest version at {@code SC} (keys, values and versions)
 * @param pendingCount transactions delivered to the replica and not finished (global ones waiting for votes)
 */
public record ReplicaStatusReply(
        long requestId, int partition, long snapshotCounter, long contentDigest, int pendingCount)
        implements ServerReply {
    public ReplicaStatusReply {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshotCounter >= 0, "snapshot counter must be >= 0: %s", snapshotCounter);
        checkArgument(pendingCount >= 0, "pending count must be >= 0: %s", pendingCount);
    }

    @Override
    public MessageType type() {
        return MessageType.REPLICA_STATUS_REPLY;
    }
}
