package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import java.util.List;
import java.util.Objects;

/**
 * The cluster's layout: enough for a client to route every read and commit and to fail over.
 *
 * @param clusterName guards against a client configured for one cluster talking to another
 * @param partitions partition {@code i} is element {@code i}; a range partitioner has one split point fewer
 * @param limits the cluster's size limits ({@code limits.*}), which clients check before sending
 */
public record ClusterInfoReply(
        long requestId, String clusterName, PartitionerSpec partitioner, List<PartitionInfo> partitions, Limits limits)
        implements ServerReply {
    public static final int CLUSTER_NAME_MAX_CHARS = 255;

    /**
     * One partition's Raft group as the answering server knows it.
     *
     * @param replicas the client addresses of the partition's replicas
     * @param leader the index in {@code replicas} of the current leader, or {@link #NO_LEADER} when unknown
     */
    public record PartitionInfo(List<HostPort> replicas, int leader) {
        public static final int NO_LEADER = -1;
        /** Far more than a Raft group ever has; bounds what a decoder accepts. */
        public static final int REPLICAS_MAX = 64;

        public PartitionInfo {
            replicas = List.copyOf(replicas);
            checkArgument(
                    !replicas.isEmpty() && replicas.size() <= REPLICAS_MAX,
                    "a partition has 1 to %s replicas",
                    REPLICAS_MAX);
            checkArgument(leader >= NO_LEADER && leader < replicas.size(), "leader index out of range: %s", leader);
        }

        public boolean leaderKnown() {
            return leader != NO_LEADER;
        }
    }

    public ClusterInfoReply {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(partitioner, "partitioner");
        Objects.requireNonNull(limits, "limits");
        partitions = List.copyOf(partitions);
        checkArgument(clusterName.length() <= CLUSTER_NAME_MAX_CHARS, "cluster name too long");
        checkArgument(
                !partitions.isEmpty() && partitions.size() <= Limits.PARTITIONS_MAX,
                "a cluster has 1 to %s partitions",
                Limits.PARTITIONS_MAX);
        checkArgument(
                partitioner.kind() != PartitionerSpec.Kind.RANGE
                        || partitioner.splitPoints().size() == partitions.size() - 1,
                "a range partitioner has one split point fewer than there are partitions");
    }

    public int partitionCount() {
        return partitions.size();
    }

    @Override
    public MessageType type() {
        return MessageType.CLUSTER_INFO_REPLY;
    }
}
