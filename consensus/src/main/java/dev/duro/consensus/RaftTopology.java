package dev.duro.consensus;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;

/**
 * Where every partition's replicas live, as Ratis sees it: node ids, their Raft addresses, and per partition
 * the nodes that replicate it. Group ids are derived from the cluster name and the partition number, so every
 * node computes the same ids without coordination, and a restarted node finds its groups on disk again.
 *
 * @param raftAddresses node id → host:port of its Raft (gRPC) endpoint
 * @param replicas per partition, the ids of the nodes that replicate it
 */
public record RaftTopology(String clusterName, Map<String, String> raftAddresses, List<List<String>> replicas) {
    public RaftTopology {
        raftAddresses = Map.copyOf(raftAddresses);
        List<List<String>> copy = new ArrayList<>(replicas.size());
        for (int p = 0; p < replicas.size(); p++) {
            List<String> nodes = List.copyOf(replicas.get(p));
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("partition " + p + " has no replicas");
            }
            for (String node : nodes) {
                if (!raftAddresses.containsKey(node)) {
                    throw new IllegalArgumentException("partition " + p + " names unknown node " + node);
                }
            }
            copy.add(nodes);
        }
        replicas = List.copyOf(copy);
    }

    public int partitionCount() {
        return replicas.size();
    }

    public RaftGroupId groupId(int partition) {
        String name = "duro:" + clusterName + ":partition:" + partition;
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    public RaftGroup group(int partition) {
        List<RaftPeer> peers = new ArrayList<>();
        for (String node : replicas.get(partition)) {
            peers.add(RaftPeer.newBuilder()
                    .setId(node)
                    .setAddress(raftAddresses.get(node))
                    .build());
        }
        return RaftGroup.valueOf(groupId(partition), peers);
    }

    /** The partition whose group has this id, or -1. */
    public int partitionOf(RaftGroupId groupId) {
        for (int p = 0; p < replicas.size(); p++) {
            if (groupId(p).equals(groupId)) {
                return p;
            }
        }
        return -1;
    }

    /** Partitions that {@code node} replicates, ascending. */
    public List<Integer> partitionsOf(String node) {
        List<Integer> hosted = new ArrayList<>();
        for (int p = 0; p < replicas.size(); p++) {
            if (replicas.get(p).contains(node)) {
                hosted.add(p);
            }
        }
        return hosted;
    }

    public static RaftPeerId peerId(String node) {
        return RaftPeerId.valueOf(node);
    }
}
