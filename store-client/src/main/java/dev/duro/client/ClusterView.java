package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.partition.HashPartitioner;
import dev.duro.core.partition.Partitioner;
import dev.duro.core.partition.RangePartitioner;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.PartitionerSpec;
import java.util.List;

/** The client's picture of the cluster: how keys map to partitions and where each partition's replicas are. */
public final class ClusterView {
    private final ClusterInfoReply info;
    private final Partitioner partitioner;

    /** The view a node's cluster layout describes. */
    public ClusterView(ClusterInfoReply info) {
        this.info = info;
        PartitionerSpec spec = info.partitioner();
        this.partitioner = spec.kind() == PartitionerSpec.Kind.RANGE
                ? new RangePartitioner(spec.splitPoints())
                : new HashPartitioner(info.partitionCount());
    }

    public String clusterName() {
        return info.clusterName();
    }

    public int partitionCount() {
        return info.partitionCount();
    }

    public int partitionOf(Bytes key) {
        return partitioner.partitionOf(key);
    }

    /** The cluster's size limits, which the client checks before sending. */
    public Limits limits() {
        return info.limits();
    }

    /** The client addresses of {@code partition}'s replicas. */
    public List<HostPort> replicas(int partition) {
        return info.partitions().get(partition).replicas();
    }

    /** The leader of {@code partition} as last reported, or null. */
    public HostPort leader(int partition) {
        ClusterInfoReply.PartitionInfo group = info.partitions().get(partition);
        return group.leaderKnown() ? group.replicas().get(group.leader()) : null;
    }

    /** Every node named in the view, for fail-over when refreshing it. */
    List<HostPort> allNodes() {
        return info.partitions().stream()
                .flatMap(p -> p.replicas().stream())
                .distinct()
                .toList();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("cluster ").append(clusterName()).append(": ");
        for (int p = 0; p < partitionCount(); p++) {
            out.append(p == 0 ? "" : "; ")
                    .append("partition ")
                    .append(p)
                    .append(" on ")
                    .append(replicas(p));
            HostPort leader = leader(p);
            out.append(leader == null ? " (no leader)" : " (leader " + leader + ")");
        }
        return out.toString();
    }
}
