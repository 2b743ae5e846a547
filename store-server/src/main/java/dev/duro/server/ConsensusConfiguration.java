package dev.duro.server;

import dev.duro.consensus.ConsensusSettings;
import dev.duro.consensus.RaftTopology;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node's configuration in the consensus module's terms: the Raft topology (every node's Raft endpoint and the
 * placement of partitions) and the node's {@link ConsensusSettings}. Translates only; starting consensus is {@link
 * DuroServer}'s.
 */
final class ConsensusConfiguration {
    private ConsensusConfiguration() {}

    static RaftTopology topology(ServerConfig config) {
        Map<String, String> raft = new LinkedHashMap<>();
        config.nodes().forEach((id, node) -> raft.put(id, node.raft().toString()));
        return new RaftTopology(config.clusterName(), raft, config.placement());
    }

    static ConsensusSettings settings(ServerConfig config) {
        ServerConfig.HostPort raft = config.self().raft();
        ConsensusSettings defaults =
                ConsensusSettings.defaults(config.dataDirectory().resolve("raft"), config.bindHost(), raft.port());
        return new ConsensusSettings(
                defaults.storageDirectory(),
                config.bindHost(),
                raft.port(),
                config.fsync(),
                config.snapshotEveryEntries(),
                config.batchCommandsMax(),
                defaults.batchBytesMax(),
                defaults.queuedBytesMax(),
                config.proposalsInFlightMax(),
                defaults.requestTimeout(),
                config.batchLingerMicros());
    }
}
