package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;

/**
 * The state of one replica of a partition, for operators ({@code ./duro status}) and tests. Replicas that applied
 * the same log report the same {@code snapshotCounter} and {@code contentDigest}; the Raft fields are the replica's
 * own view of its group.
 *
 * @param snapshotCounter the replica's {@code SC}: the newest snapshot readers may use
 * @param contentDigest a digest of every key's newest version at {@code SC} (keys, values and versions)
 * @param pendingCount transactions delivered to the replica and not finished (global ones waiting for votes)
 * @param node the id of the node that holds this replica
 * @param leader the id of the node this replica takes for its group's leader, or empty if it knows none
 * @param term the replica's current Raft term
 * @param commitIndex the highest log index the replica knows to be committed
 * @param appliedIndex the highest log index the replica has applied
 */
public record ReplicaStatusReply(
        long requestId,
        int partition,
        long snapshotCounter,
        long contentDigest,
        int pendingCount,
        String node,
        String leader,
        long term,
        long commitIndex,
        long appliedIndex)
        implements ServerReply {
    /** The longest node id, in UTF-8 bytes, a status reply carries. */
    public static final int NODE_ID_MAX_BYTES = 255;

    public ReplicaStatusReply {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshotCounter >= 0, "snapshot counter must be >= 0: %s", snapshotCounter);
        checkArgument(pendingCount >= 0, "pending count must be >= 0: %s", pendingCount);
        checkArgument(!node.isEmpty(), "node id must not be empty");
        checkArgument(term >= 0 && commitIndex >= -1 && appliedIndex >= -1, "negative term or index");
    }

    /** Whether the replica knows a leader for its group. */
    public boolean leaderKnown() {
        return !leader.isEmpty();
    }

    @Override
    public MessageType type() {
        return MessageType.REPLICA_STATUS_REPLY;
    }
}
