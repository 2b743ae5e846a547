package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.HostPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a node tells a client of the cluster ({@link ClusterInfoReply}): the partitioner, the limits, and per
 * partition the addresses its replicas advertise to clients and the one this node believes leads it.
 */
final class ClusterDescription implements MessageHandler.ClusterInfoSource {
    private final ServerConfig config;
    private final Routing routing;
    private final ConsensusNode consensus;

    ClusterDescription(ServerConfig config, Routing routing, ConsensusNode consensus) {
        this.config = config;
        this.routing = routing;
        this.consensus = consensus;
    }

    @Override
    public ClusterInfoReply describe(long requestId) {
        List<ClusterInfoReply.PartitionInfo> partitions = new ArrayList<>();
        for (int p = 0; p < config.partitionCount(); p++) {
            List<String> replicas = config.placement().get(p);
            List<HostPort> addresses = new ArrayList<>();
            for (String node : replicas) {
                ServerConfig.HostPort address = Objects.requireNonNull(
                                config.nodes().get(node), "a placed node is configured")
                        .advertised();
                addresses.add(new HostPort(address.host(), address.port()));
            }
            String leader = consensus.leaderOf(p);
            int leaderIndex = leader == null ? ClusterInfoReply.PartitionInfo.NO_LEADER : replicas.indexOf(leader);
            partitions.add(new ClusterInfoReply.PartitionInfo(addresses, leaderIndex));
        }
        return new ClusterInfoReply(requestId, config.clusterName(), routing.spec(), partitions, config.limits());
    }
}
