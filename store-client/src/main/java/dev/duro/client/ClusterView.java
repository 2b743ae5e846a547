package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.partition.HashPartitioner;
import dev.duro.core.partition.Partitioner;
import dev.duro.core.partition.RangePartitioner;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.PartitionerSpec;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

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

    /** Whether keys are stored in order across partitions (the range partitioner), so a scan can go partition by partition. */
    public boolean ordersKeys() {
        return info.partitioner().kind() == PartitionerSpec.Kind.RANGE;
    }

    /**
     * The partitions that hold keys of {@code range}, each with the part of the range it holds, ascending by key:
     * with the range partitioner the consecutive partitions the range crosses, each with its slice; with the hash
     * partitioner every partition, each with the whole range (any of them may hold any key of it).
     */
    public List<PartitionRange> partitionsOf(KeyRange range) {
        List<PartitionRange> slices = new ArrayList<>();
        if (!ordersKeys()) {
            for (int p = 0; p < partitionCount(); p++) {
                slices.add(new PartitionRange(p, range));
            }
            return slices;
        }
        List<Bytes> splits = info.partitioner().splitPoints();
        for (int p = partitionOf(range.from()); p < partitionCount(); p++) {
            Bytes start = p == 0 ? Bytes.EMPTY : splits.get(p - 1);
            Bytes end = p < splits.size() ? splits.get(p) : null;
            if (range.to() != null && start.compareTo(range.to()) >= 0) {
                break;
            }
            KeyRange slice = KeyRanges.intersection(range, new KeyRange(start, end));
            if (slice != null) {
                slices.add(new PartitionRange(p, slice));
            }
        }
        return slices;
    }

    /** A partition and the part of a range it holds. */
    public record PartitionRange(int partition, KeyRange range) {}

    /** The cluster's size limits, which the client checks before sending. */
    public Limits limits() {
        return info.limits();
    }

    /** The client addresses of {@code partition}'s replicas. */
    public List<HostPort> replicas(int partition) {
        return info.partitions().get(partition).replicas();
    }

    /** The leader of {@code partition} as last reported, or null. */
    public @Nullable HostPort leader(int partition) {
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
