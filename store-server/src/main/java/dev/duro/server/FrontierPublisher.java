package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.OverloadedException;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.SnapshotVectorTracker;
import dev.duro.core.wire.FrontierMessage;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;

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

    private static final int CUT_WAITERS_MAX = 10_000;

    /** Linearizable read-only transactions waiting for the cut to cover a minimum; guarded by the tracker. */
    private final List<CutWaiter> cutWaiters = new ArrayList<>();

    private record CutWaiter(long[] minimum, CompletableFuture<long[]> future) {}

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
                // Polled every round: a peer that was down is reconnected even when no vote goes its way, and
                // anything it may have missed is sent again once it is back.
                Channel channel = peers.liveChannel(node);
                if (channel != publishedOn.get(node)) {
                    if (channel == null) {
                        publishedOn.remove(node);
                    } else {
                        publishedOn.put(node, channel);
                    }
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
                boolean self = node.equals(selfId);
                if (!self && !publishedOn.containsKey(node)) {
                    continue; // not connected: sent in full once it is
                }
                long upTo = sent.getOrDefault(node, 0L);
                Frontier frontier = replica.frontier(upTo);
                if (frontier.snapshotCounter() == upTo && frontier.globals().isEmpty() && sent.containsKey(node)) {
                    continue; // nothing new for this destination
                }
                if (self) {
                    accept(frontier);
                } else {
                    peers.send(node, new FrontierMessage(frontier));
                }
                sent.put(node, frontier.snapshotCounter());
            }
        }
    }

    /** A frontier from any node, this one included. */
    void accept(Frontier frontier) {
        List<CutWaiter> ready = new ArrayList<>();
        long[] cut;
        synchronized (tracker) {
            tracker.update(frontier);
            cut = tracker.cut();
            cutWaiters.removeIf(waiter -> {
                if (waiter.future.isDone()) {
                    return true; // timed out
                }
                if (covers(cut, waiter.minimum)) {
                    ready.add(waiter);
                    return true;
                }
                return false;
            });
        }
        for (CutWaiter waiter : ready) {
            waiter.future.complete(cut.clone());
        }
    }

    /**
     * A cut covering, at every partition, the newest transaction delivered there as of a Raft ReadIndex taken
     * now: a read-only transaction at it sees everything acknowledged before this call (linearizable).
     */
    CompletableFuture<long[]> linearizableCut(Duration waitMax) {
        int partitions = consensus.topology().partitionCount();
        List<CompletableFuture<Long>> confirmed = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            confirmed.add(consensus.linearizableDeliveredCounter(p));
        }
        return CompletableFuture.allOf(confirmed.toArray(new CompletableFuture<?>[0]))
                .thenCompose(all -> {
                    long[] minimum = new long[partitions];
                    for (int p = 0; p < partitions; p++) {
                        minimum[p] = confirmed.get(p).join();
                    }
                    return awaitCut(minimum);
                })
                .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS);
    }

    private CompletableFuture<long[]> awaitCut(long[] minimum) {
        synchronized (tracker) {
            long[] cut = tracker.cut();
            if (covers(cut, minimum)) {
                return CompletableFuture.completedFuture(cut);
            }
            if (cutWaiters.size() >= CUT_WAITERS_MAX) {
                return CompletableFuture.failedFuture(
                        new OverloadedException("too many linearizable read-only transactions waiting"));
            }
            CutWaiter waiter = new CutWaiter(minimum, new CompletableFuture<>());
            cutWaiters.add(waiter);
            return waiter.future;
        }
    }

    private static boolean covers(long[] cut, long[] minimum) {
        for (int p = 0; p < minimum.length; p++) {
            if (cut[p] < minimum[p]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The greatest consistent cut this node knows, or null until a frontier of every partition has arrived (see
     * {@link SnapshotVectorTracker#heardFromEveryPartition}): a node that just started answers {@code NOT_READY}
     * and the client asks another.
     */
    @Nullable
    long[] cut() {
        synchronized (tracker) {
            return tracker.heardFromEveryPartition() ? tracker.cut() : null;
        }
    }
}
