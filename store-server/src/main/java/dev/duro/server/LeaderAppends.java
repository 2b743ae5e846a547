package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.GroupCommitter;
import dev.duro.core.OverloadedException;
import dev.duro.core.engine.Command;
import dev.duro.core.node.AppendMessage;
import dev.duro.core.node.AppendReply;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends commands to a partition's log in its leader's own entries (docs/replication.md, "Appends go to the leader").
 *
 * <p>A command for a partition this node does not lead (the other half of a global transaction, a decision copied
 * into another participant's log, an abort request) goes to the leader's node as an {@link AppendMessage} over the
 * peer link, and the leader's committer batches it with the commands it proposes itself. Proposed through this
 * node's own committer instead, it would become an entry of its own, sent through Ratis's client: with the two
 * partitions of Duro 2 × 3 led from different nodes, a third of each partition's entries were such entries at 50%
 * global.
 *
 * <p>Every path that does not end in {@link AppendReply.Status#APPENDED} falls back to this node's committer, which
 * finds the leader through Ratis's client as before: no leader known, no live link to it, a reply that it no longer
 * leads, an entry that failed there, no reply within {@link #REPLY_TIMEOUT_MILLIS}. The fallback may append a command
 * twice; the engine answers a repeated commit request with its first outcome (or as unknown once it forgot it), and a
 * repeated decision or abort
 * request changes nothing (docs/window-safety.md). Only a leader whose queue is full ({@code OVERLOADED}) fails the
 * append, as this node's own full queue does.
 */
final class LeaderAppends {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderAppends.class);
    /** How long an append waits for the leader's answer before it goes through this node's committer. */
    static final long REPLY_TIMEOUT_MILLIS = 2_000;
    /** The most appends waiting for the leaders' answers; beyond it commands go through this node's committer. */
    static final int WAITING_MAX = 65_536;
    /** How often the appends that waited longer than {@link #REPLY_TIMEOUT_MILLIS} are looked for. */
    private static final long SWEEP_MILLIS = 250;

    private final String selfId;
    private final Supplier<ConsensusNode> consensus;
    private final PeerLinks peers;
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();
    private final LongAdder sentToLeader = new LongAdder();
    private final LongAdder fellBack = new LongAdder();

    private record Waiting(int partition, Command command, CompletableFuture<Void> done, long sentNanos) {}

    /**
     * @param timer runs the sweep for appends that got no answer; shutting it down stops it
     */
    LeaderAppends(String selfId, Supplier<ConsensusNode> consensus, PeerLinks peers, ScheduledExecutorService timer) {
        this.selfId = selfId;
        this.consensus = consensus;
        this.peers = peers;
        timer.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Appends {@code command} to {@code partition}'s log. The future completes when the entry holding it is committed
     * at the leader, or fails if it could not be appended (the command may still be in the log).
     *
     * @throws OverloadedException if this node's queue for the partition is full ({@code raft.queued-bytes-max})
     */
    CompletableFuture<Void> append(int partition, Command command) {
        ConsensusNode node = consensus.get();
        // One look at the group: leading it here, the committer proposes straight to this node's replica.
        String leader = node.leaderOf(partition);
        if (leader == null || leader.equals(selfId) || waiting.size() >= WAITING_MAX) {
            return node.committer(partition).submit(command);
        }
        Channel link = peers.liveChannel(leader);
        if (link == null) {
            return node.committer(partition).submit(command); // no link yet: Ratis's client finds the leader
        }
        long id = nextId.getAndIncrement();
        CompletableFuture<Void> done = new CompletableFuture<>();
        waiting.put(id, new Waiting(partition, command, done, System.nanoTime()));
        sentToLeader.increment();
        peers.send(leader, new AppendMessage(id, partition, List.of(command)));
        return done;
    }

    /** A leader's answer to one of this node's appends (from {@link PeerLinks}). */
    void answered(AppendReply reply) {
        Waiting append = waiting.remove(reply.id());
        if (append == null) {
            return; // answered after its timeout: it went through the committer already
        }
        switch (reply.status()) {
            case APPENDED -> append.done().complete(null);
            case OVERLOADED -> append.done().completeExceptionally(new OverloadedException(reply.detail()));
            case NOT_LEADER, FAILED -> {
                LOG.debug(
                        "append to partition {} through its leader: {} ({})",
                        append.partition(),
                        reply.status(),
                        reply.detail());
                fallBack(append);
            }
        }
    }

    /** Sends the appends that waited longer than {@link #REPLY_TIMEOUT_MILLIS} through this node's committer. */
    private void sweep() {
        long now = System.nanoTime();
        for (Map.Entry<Long, Waiting> entry : waiting.entrySet()) {
            Waiting append = entry.getValue();
            if (now - append.sentNanos() > TimeUnit.MILLISECONDS.toNanos(REPLY_TIMEOUT_MILLIS)
                    && waiting.remove(entry.getKey(), append)) {
                LOG.debug(
                        "append to partition {} through its leader: no answer in {} ms",
                        append.partition(),
                        REPLY_TIMEOUT_MILLIS);
                fallBack(append);
            }
        }
    }

    private void fallBack(Waiting append) {
        fellBack.increment();
        try {
            consensus
                    .get()
                    .committer(append.partition())
                    .submit(append.command())
                    .whenComplete((ok, failure) -> {
                        if (failure != null) {
                            append.done().completeExceptionally(failure);
                        } else {
                            append.done().complete(null);
                        }
                    });
        } catch (RuntimeException e) {
            append.done().completeExceptionally(e); // this node's queue is full, or it is closing
        }
    }

    /**
     * Serves another node's {@link AppendMessage}: appends its commands through this node's committer if this node
     * leads the partition, and answers once their entries are committed; at once otherwise.
     */
    void serve(AppendMessage append, Consumer<AppendReply> answer) {
        ConsensusNode node = consensus.get();
        int partition = append.partition();
        if (!node.isLeader(partition)) {
            String leader = node.leaderOf(partition);
            answer.accept(new AppendReply(
                    append.id(),
                    AppendReply.Status.NOT_LEADER,
                    "node " + selfId + " does not lead partition " + partition + " (leader: "
                            + (leader == null ? "none known" : leader) + ")"));
            return;
        }
        GroupCommitter committer = node.committer(partition);
        List<CompletableFuture<Void>> queued = new ArrayList<>(append.commands().size());
        try {
            for (Command command : append.commands()) {
                queued.add(committer.submit(command));
            }
        } catch (OverloadedException e) {
            // Nothing queued: overloaded. Some queued: they may be appended, the rest not; the sender falls back.
            AppendReply.Status status = queued.isEmpty() ? AppendReply.Status.OVERLOADED : AppendReply.Status.FAILED;
            answer.accept(new AppendReply(append.id(), status, String.valueOf(e.getMessage())));
            return;
        }
        CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new)).whenComplete((ok, failure) -> {
            if (failure == null) {
                answer.accept(new AppendReply(append.id(), AppendReply.Status.APPENDED, ""));
            } else {
                answer.accept(new AppendReply(append.id(), AppendReply.Status.FAILED, describe(failure)));
            }
        });
    }

    private static String describe(Throwable failure) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause.toString();
    }

    /** Commands sent to their partition's leader so far. */
    long sentToLeader() {
        return sentToLeader.sum();
    }

    /** Of those, the ones that went through this node's committer after all. */
    long fellBack() {
        return fellBack.sum();
    }

    /** Appends waiting for a leader's answer now. */
    int waiting() {
        return waiting.size();
    }
}
