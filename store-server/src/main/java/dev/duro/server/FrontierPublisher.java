package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.SnapshotVectorTracker;
import dev.duro.core.wire.FrontierMessage;
import io.netty.channel.Channel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The vector-of-snapshots service (DESIGN §6). Every few milliseconds, each partition's designated voter on
 * this node publishes its frontier to every node; every node folds the frontiers it receives into its
 * {@link SnapshotVectorTracker}.
 *
 * <p>A frontier lists the global commits above what that destination was last sent. What a destination has
 * been sent is forgotten when its connection changes or this replica's leadership does, so after any doubt it
 * is sent everything still retained: frontiers may repeat, never skip a global commit.
 */
final class FrontierPublisher {
    private final ConsensusNode consensus;
    private final PeerLinks peers;
    private final String selfId;
    private final List<String> nodes;
    private final SnapshotVectorTracker tracker;
    /** partition → destination → counter last sent; only touched by the publishing thread. */
    private final Map<Integer, Map<String, Long>> published = new HashMap<>();
    /** destination → the channel the counters above were sent on. */
    private final Map<String, Channel> publishedOn = new HashMap<>();

    FrontierPublisher(ConsensusNode consensus, PeerLinks peers, String selfId, List<String> nodes) {
        this.consensus = consensus;
        this.peers = peers;
        this.selfId = selfId;
        this.nodes = List.copyOf(nodes);
        this.tracker = new SnapshotVectorTracker(consensus.topology().partitionCount());
    }

    /** One round: called periodically from a single thread. */
    void publish() {
        for (String node : nodes) {
            if (!node.equals(selfId)) {
                Channel channel = peers.channel(node);
                if (channel != publishedOn.get(node)) {
                    publishedOn.put(node, channel);
                    for (Map<String, Long> sent : published.values()) {
                        sent.remove(node);
                    }
                }
            }
        }
        for (PartitionStateMachine replica : consensus.replicas()) {
            int partition = replica.partition();
            if (!replica.isDesignatedVoter()) {
                published.remove(partition);
                continue;
            }
            Map<String, Long> sent = published.computeIfAbsent(partition, p -> new HashMap<>());
            for (String node : nodes) {
                long upTo = sent.getOrDefault(node, 0L);
                Frontier frontier = replica.frontier(upTo);
                if (frontier.snapshotCounter() == upTo && frontier.globals().isEmpty() && sent.containsKey(node)) {
                    continue; // nothing new for this destination
                }
                if (node.equals(selfId)) {
                    accept(frontier);
                    sent.put(node, frontier.snapshotCounter());
                } else if (peers.connected(node) || !sent.containsKey(node)) {
                    peers.send(node, new FrontierMessage(frontier));
                    sent.put(node, frontier.snapshotCounter());
                }
            }
        }
    }

    /** A frontier from any node, this one included. */
    void accept(Frontier frontier) {
        synchronized (tracker) {
            tracker.update(frontier);
        }
    }

    /** The greatest consistent cut this node knows. */
    long[] cut() {
        synchronized (tracker) {
            return tracker.cut();
        }
    }
}
