package dev.duro.server;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.OverloadedException;
import dev.duro.core.engine.CutAdvance;
import dev.duro.core.node.FrontierMessage;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.SnapshotVectorTracker;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;

/**
 * The vector-of-snapshots service (docs/architecture.md §6). Every few milliseconds this node hands the frontier of each of its
 * replicas to its own tracker, and each partition's Raft leader on this node sends its frontier to every other
 * node; every node folds the frontiers it receives into its {@link SnapshotVectorTracker}.
 *
 * <p>Read-only transactions read the chain of cuts partition 0's log holds, not this node's own tracker cut: two
 * nodes' trackers can compute incomparable cuts, at which two read-only transactions would see two independent
 * commits in opposite orders. The caught-up leader of partition 0 feeds its tracker's cut into that chain
 * ({@link #advanceChain}); partition 0's frontiers carry the chain's newest cut to every node.
 *
 * <p>A frontier is self-contained ({@code SC} and the dependency vector at it), so nothing is remembered per
 * destination: any replica may publish, and losing, repeating or reordering frontiers is safe. To keep an idle
 * cluster quiet, a leader sends only when its {@code SC} changed since its last send, every
 * {@link #REFRESH_MILLIS} otherwise (covering a lost message), and at once to a peer whose connection is new (a
 * restarted node needs a frontier of every partition before it serves cuts). The link to every peer is polled
 * each round, which also reconnects one that no vote uses: under local-only load a restarted node would otherwise
 * never hear a frontier again and never build a linearizable cut.
 */
final class FrontierPublisher {
    /** A leader whose frontier did not change sends it again this often. */
    static final long REFRESH_MILLIS = 1_000;
    /** The partition whose log holds the chain of cuts read-only transactions read (docs/window-safety.md). */
    static final int CHAIN_PARTITION = 0;
    /** The leader of {@link #CHAIN_PARTITION} proposes its tracker's cut into the chain at most this often. */
    static final long CHAIN_ADVANCE_MILLIS = 10;

    private final ConsensusNode consensus;
    private final PeerLinks peers;
    private final String selfId;
    private final List<String> nodes;
    private final LongSupplier clockMillis;
    private final SnapshotVectorTracker tracker;

    /** Only touched by the publishing thread: partition → what it last sent to the peers. */
    private final Map<Integer, Sent> lastSent = new HashMap<>();
    /** Only touched by the publishing thread: peer → its live channel at the last round. */
    private final Map<String, Channel> channels = new HashMap<>();

    private record Sent(Frontier frontier, long atMillis) {}

    /** Only touched by the publishing thread: the cut last proposed into the chain, and when. */
    private long[] chainProposed = new long[0];

    private long chainProposedAtMillis;

    private static final int CUT_WAITERS_MAX = 10_000;

    /** Linearizable read-only transactions waiting for the cut to cover a minimum. */
    @GuardedBy("tracker")
    private final List<CutWaiter> cutWaiters = new ArrayList<>();

    private record CutWaiter(long[] minimum, CompletableFuture<long[]> future) {}

    FrontierPublisher(
            ConsensusNode consensus, PeerLinks peers, String selfId, List<String> nodes, LongSupplier clockMillis) {
        this.consensus = consensus;
        this.peers = peers;
        this.selfId = selfId;
        this.nodes = List.copyOf(nodes);
        this.clockMillis = clockMillis;
        this.tracker = new SnapshotVectorTracker(consensus.topology().partitionCount());
    }

    int partitionCount() {
        return consensus.topology().partitionCount();
    }

    /** One round: called periodically from a single thread. */
    void publish() {
        long now = clockMillis.getAsLong();
        List<String> live = new ArrayList<>(nodes.size());
        List<String> reconnected = new ArrayList<>(nodes.size());
        for (String node : nodes) {
            if (node.equals(selfId)) {
                continue;
            }
            Channel channel = peers.liveChannel(node); // polled every round: starts a reconnect when there is none
            Channel before = channel == null ? channels.remove(node) : channels.put(node, channel);
            if (channel != null) {
                live.add(node);
                if (channel != before) {
                    reconnected.add(node);
                }
            }
        }
        for (PartitionStateMachine replica : consensus.replicas()) {
            Frontier frontier = replica.frontier();
            accept(frontier);
            int partition = replica.partition();
            if (!replica.isLeader()) {
                lastSent.remove(partition);
                continue;
            }
            if (partition == CHAIN_PARTITION && replica.isDesignatedVoter()) {
                advanceChain(now);
            }
            Sent sent = lastSent.get(partition);
            boolean due = sent == null || !sent.frontier().equals(frontier) || now - sent.atMillis() >= REFRESH_MILLIS;
            List<String> to = due ? live : reconnected;
            if (to.isEmpty()) {
                continue;
            }
            FrontierMessage message = new FrontierMessage(frontier);
            for (String node : to) {
                peers.send(node, message);
            }
            if (due) {
                lastSent.put(partition, new Sent(frontier, now));
            }
        }
    }

    /**
     * As the caught-up leader of {@link #CHAIN_PARTITION}: proposes this node's tracker cut into that partition's
     * log when it moved. Every replica raises its cut floor to the maximum of the floor and the cut, so the cuts
     * the log holds form one chain, whichever node's tracker fed it, and read-only transactions read only those.
     */
    private void advanceChain(long now) {
        if (now - chainProposedAtMillis < CHAIN_ADVANCE_MILLIS) {
            return;
        }
        long[] cut;
        synchronized (tracker) {
            if (!tracker.heardFromEveryPartition()) {
                return;
            }
            cut = tracker.cut();
        }
        if (Arrays.equals(cut, chainProposed) && now - chainProposedAtMillis < REFRESH_MILLIS) {
            return; // proposed already; again once a second, in case that proposal was lost with a leader
        }
        List<Long> values = new ArrayList<>(cut.length);
        for (long snapshot : cut) {
            values.add(snapshot);
        }
        try {
            consensus.committer(CHAIN_PARTITION).submit(new CutAdvance(CHAIN_PARTITION, values));
            chainProposed = cut;
            chainProposedAtMillis = now;
        } catch (OverloadedException e) {
            // the next round tries again
        }
    }

    /** The newest counter this node heard from {@code partition} (its own replica's included), or 0. */
    long newestHeard(int partition) {
        synchronized (tracker) {
            return tracker.frontierAt(partition);
        }
    }

    /**
     * How many transactions of {@code partition} the newest cut of the chain does not cover yet: the newest
     * counter heard from the partition minus the chain's entry for it (read-only transactions read that chain).
     */
    long cutLag(int partition) {
        synchronized (tracker) {
            long[] chain = tracker.chainCut();
            long cut = partition < chain.length ? chain[partition] : 0;
            return Math.max(0, tracker.frontierAt(partition) - cut);
        }
    }

    /** A frontier from any node, this one included. */
    void accept(Frontier frontier) {
        List<CutWaiter> ready = new ArrayList<>();
        long[] cut;
        synchronized (tracker) {
            tracker.update(frontier);
            cut = tracker.chainCut();
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
     * now, and {@code minimum}: a read-only transaction at it sees everything acknowledged before this call
     * (linearizable).
     */
    CompletableFuture<long[]> linearizableCut(long[] minimum, Duration waitMax) {
        int partitions = consensus.topology().partitionCount();
        List<CompletableFuture<Long>> confirmed = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            confirmed.add(consensus.linearizableDeliveredCounter(p));
        }
        return CompletableFuture.allOf(confirmed.toArray(new CompletableFuture<?>[0]))
                .thenCompose(all -> {
                    long[] target = new long[partitions];
                    for (int p = 0; p < partitions; p++) {
                        target[p] = Math.max(confirmed.get(p).join(), p < minimum.length ? minimum[p] : 0);
                    }
                    return awaitCut(target);
                })
                .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        failure instanceof TimeoutException ? new TimeoutException(stalled(confirmed)) : failure));
    }

    /**
     * The chain's newest cut once it covers {@code minimum} (a client's session: its own commits and the cuts it
     * read), completed by the frontier that makes it so; fails with a {@link TimeoutException} after
     * {@code waitMax}.
     */
    CompletableFuture<long[]> cutCovering(long[] minimum, Duration waitMax) {
        return awaitCut(minimum).orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Which step a linearizable cut that timed out was waiting for, for the NOT_READY message. */
    private String stalled(List<CompletableFuture<Long>> confirmed) {
        List<Integer> unanswered = new ArrayList<>();
        List<Long> minimum = new ArrayList<>();
        for (int p = 0; p < confirmed.size(); p++) {
            CompletableFuture<Long> counter = confirmed.get(p);
            if (!counter.isDone()) {
                unanswered.add(p);
            } else {
                minimum.add(counter.isCompletedExceptionally() ? -1 : counter.join());
            }
        }
        if (!unanswered.isEmpty()) {
            return "no ReadIndex answer from partitions " + unanswered;
        }
        long[] cut;
        synchronized (tracker) {
            cut = tracker.chainCut();
        }
        return "the chain of cuts at " + Arrays.toString(cut) + " does not cover the delivered counters " + minimum
                + " yet";
    }

    private CompletableFuture<long[]> awaitCut(long[] minimum) {
        synchronized (tracker) {
            long[] cut = tracker.chainCut();
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
     * The newest cut of the chain this node knows ({@link SnapshotVectorTracker#chainCut}), or null until a frontier
     * of every partition has arrived (see {@link SnapshotVectorTracker#heardFromEveryPartition}): a node that just
     * started answers {@code NOT_READY} and the client asks another.
     */
    @Nullable
    long[] cut() {
        synchronized (tracker) {
            return tracker.heardFromEveryPartition() ? tracker.chainCut() : null;
        }
    }
}
