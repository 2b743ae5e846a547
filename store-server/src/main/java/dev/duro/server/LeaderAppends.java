package dev.duro.server;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.consensus.CommandBatches;
import dev.duro.consensus.CommandHandoff;
import dev.duro.consensus.ConsensusNode;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.OverloadedException;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.node.AppendMessage;
import dev.duro.core.node.AppendReply;
import io.netty.channel.Channel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commands for a partition this node does not lead go to the leader's node, whose committer queues them into its own
 * entries (docs/replication.md, "Appends go to the leader").
 *
 * <p>This node's committer of such a partition hands each command it is asked to append (the other half of a global
 * transaction, a decision copied into another participant's log, an abort request) here ({@link CommandHandoff}).
 * The commands handed off for one partition gather in its {@link Outbox} until the peer link's event loop next runs:
 * then they go to the leader's node together, as one entry in one {@link AppendMessage}, answered once. Proposed
 * through Ratis's client instead, each batch was an entry of its own in the log: with the two partitions of Duro
 * 2 × 3 led from different nodes, a third of each partition's entries were such entries at 50% global.
 *
 * <p>A command whose append ends in anything but {@link AppendReply.Status#APPENDED} or {@link
 * AppendReply.Status#OVERLOADED} goes into this node's own entries after all, proposed through Ratis's client, which
 * finds the leader as before: a reply that the node no longer leads, an entry that failed there, no reply within
 * {@link #REPLY_TIMEOUT_MILLIS}. Nothing is handed off when no leader is known, this node leads, there is no live link
 * to the leader, the command would not fit a frame, or {@link #WAITING_MAX} commands or {@link #WAITING_BYTES_MAX}
 * bytes wait for answers. The fallback
 * may append a command twice; the engine answers a repeated commit request with its first outcome (or as unknown once
 * it forgot it), and a repeated decision or abort request changes nothing (docs/window-safety.md). A leader whose
 * queue is full ({@code OVERLOADED}) queued none of the message's commands, and they fail as this node's own full
 * queue fails them.
 */
final class LeaderAppends implements CommandHandoff {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderAppends.class);
    /** How long an append waits for the leader's answer before its commands go through Ratis's client. */
    static final long REPLY_TIMEOUT_MILLIS = 2_000;
    /** The most commands waiting for the leaders' answers; beyond it commands go through Ratis's client. */
    static final int WAITING_MAX = 65_536;
    /** The most bytes of commands waiting for the leaders' answers, kept for the fallback; beyond it, the same. */
    static final long WAITING_BYTES_MAX = 64L << 20;
    /** The most commands in one message: as many as one log entry may hold. */
    static final int COMMANDS_MAX = 4_096;
    /** How often the appends that waited longer than {@link #REPLY_TIMEOUT_MILLIS} are looked for. */
    private static final long SWEEP_MILLIS = 250;
    /** Room in a frame for an append's id, partition and entry header, besides the frame's own header. */
    private static final int APPEND_OVERHEAD_BYTES = 64;

    private final String selfId;
    private final Supplier<ConsensusNode> consensus;
    private final PeerLinks peers;
    private final CommandBatches batches;
    /** The most bytes of commands in one message: larger would not fit the leader's frames. */
    private final int entryBytesMax;

    private final Map<Integer, Outbox> outboxes = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();
    /** Commands in {@link #waiting} and in the outboxes. */
    private final AtomicInteger commandsWaiting = new AtomicInteger();
    /** Their bytes. */
    private final AtomicLong bytesWaiting = new AtomicLong();

    private final LongAdder handedOff = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private final LongAdder fellBack = new LongAdder();

    /** A command handed off, and the future that tells its committer how its append ended. */
    private record Handed(byte[] encoded, CompletableFuture<Void> appended) {}

    /** @param bytes the commands' bytes, counted in {@link #bytesWaiting} */
    private record Waiting(int partition, List<Handed> commands, long bytes, long sentNanos) {}

    /**
     * @param frameBytesMax this cluster's {@code server.frame-bytes-max}
     * @param timer runs the sweep for appends that got no answer; shutting it down stops it
     */
    LeaderAppends(
            String selfId,
            Supplier<ConsensusNode> consensus,
            PeerLinks peers,
            Limits limits,
            int frameBytesMax,
            ScheduledExecutorService timer) {
        this.selfId = selfId;
        this.consensus = consensus;
        this.peers = peers;
        this.batches = new CommandBatches(limits);
        this.entryBytesMax = frameBytesMax - APPEND_OVERHEAD_BYTES;
        timer.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public @Nullable CompletableFuture<Void> handOff(int partition, byte[] encoded) {
        String leader = consensus.get().leaderOf(partition);
        if (leader == null
                || leader.equals(selfId)
                || encoded.length > entryBytesMax
                || commandsWaiting.get() >= WAITING_MAX
                || bytesWaiting.get() + encoded.length > WAITING_BYTES_MAX) {
            return null;
        }
        Channel link = peers.liveChannel(leader);
        if (link == null) {
            return null;
        }
        commandsWaiting.incrementAndGet();
        bytesWaiting.addAndGet(encoded.length);
        handedOff.increment();
        CompletableFuture<Void> appended = new CompletableFuture<>();
        outboxes.computeIfAbsent(partition, Outbox::new).add(leader, link, new Handed(encoded, appended));
        return appended;
    }

    /**
     * The commands handed off for one partition and not sent yet. The first one in schedules a flush on the link's
     * event loop; whatever comes before that runs goes in the same message. A message is cut short at {@link
     * #COMMANDS_MAX} commands or {@link #entryBytesMax} bytes, and when the leader the node sees changes.
     */
    private final class Outbox implements Runnable {
        private final int partition;

        @GuardedBy("this")
        private List<Handed> pending = new ArrayList<>();

        @GuardedBy("this")
        private long pendingBytes;

        /** The leader the pending commands go to; meaningless while there are none. */
        @GuardedBy("this")
        private String pendingLeader = "";

        Outbox(int partition) {
            this.partition = partition;
        }

        void add(String leader, Channel link, Handed command) {
            List<Handed> full = null;
            String fullLeader = "";
            boolean schedule;
            synchronized (this) {
                if (!pending.isEmpty()
                        && (!leader.equals(pendingLeader)
                                || pending.size() >= COMMANDS_MAX
                                || pendingBytes + command.encoded().length > entryBytesMax)) {
                    full = pending;
                    fullLeader = pendingLeader;
                    pending = new ArrayList<>();
                    pendingBytes = 0;
                }
                schedule = pending.isEmpty();
                pending.add(command);
                pendingBytes += command.encoded().length;
                pendingLeader = leader;
            }
            if (full != null) {
                send(partition, fullLeader, full);
            }
            if (schedule) {
                try {
                    link.eventLoop().execute(this);
                } catch (RejectedExecutionException closing) {
                    run(); // the node is closing: the link will not carry it, and the sweep's timeout ends it
                }
            }
        }

        /** The flush: sends what gathered since it was scheduled. */
        @Override
        public void run() {
            List<Handed> batch;
            String leader;
            synchronized (this) {
                if (pending.isEmpty()) {
                    return; // sent already, when a message filled up
                }
                batch = pending;
                leader = pendingLeader;
                pending = new ArrayList<>();
                pendingBytes = 0;
            }
            send(partition, leader, batch);
        }
    }

    private void send(int partition, String leader, List<Handed> commands) {
        List<byte[]> encoded = new ArrayList<>(commands.size());
        long bytes = 0;
        for (Handed command : commands) {
            encoded.add(command.encoded());
            bytes += command.encoded().length;
        }
        long id = nextId.getAndIncrement();
        waiting.put(id, new Waiting(partition, commands, bytes, System.nanoTime()));
        messages.increment();
        // A link that dropped meanwhile loses the message: the sweep sends its commands through Ratis's client.
        peers.send(leader, new AppendMessage(id, partition, Bytes.wrap(batches.join(encoded))));
    }

    /** A leader's answer to one of this node's appends (from {@link PeerLinks}). */
    void answered(AppendReply reply) {
        Waiting append = waiting.remove(reply.id());
        if (append == null) {
            return; // answered after its timeout: it went through Ratis's client already
        }
        released(append);
        switch (reply.status()) {
            case APPENDED -> tell(append, null);
            case OVERLOADED -> tell(append, new OverloadedException(reply.detail()));
            case NOT_LEADER, FAILED -> {
                LOG.debug(
                        "append to partition {} through its leader: {} ({})",
                        append.partition(),
                        reply.status(),
                        reply.detail());
                fallBack(append, new IOException(reply.status() + ": " + reply.detail()));
            }
        }
    }

    /** Sends the commands of appends unanswered after {@link #REPLY_TIMEOUT_MILLIS} through Ratis's client. */
    private void sweep() {
        long now = System.nanoTime();
        for (Map.Entry<Long, Waiting> entry : waiting.entrySet()) {
            Waiting append = entry.getValue();
            if (now - append.sentNanos() > TimeUnit.MILLISECONDS.toNanos(REPLY_TIMEOUT_MILLIS)
                    && waiting.remove(entry.getKey(), append)) {
                released(append);
                LOG.debug(
                        "append to partition {} through its leader: no answer in {} ms",
                        append.partition(),
                        REPLY_TIMEOUT_MILLIS);
                fallBack(append, new TimeoutException("no answer from the leader in " + REPLY_TIMEOUT_MILLIS + " ms"));
            }
        }
    }

    private void released(Waiting append) {
        commandsWaiting.addAndGet(-append.commands().size());
        bytesWaiting.addAndGet(-append.bytes());
    }

    private void fallBack(Waiting append, Exception why) {
        fellBack.add(append.commands().size());
        tell(append, why); // each command's committer queues it itself, to go through Ratis's client
    }

    private static void tell(Waiting append, @Nullable Throwable failure) {
        for (Handed command : append.commands()) {
            if (failure == null) {
                command.appended().complete(null);
            } else {
                command.appended().completeExceptionally(failure);
            }
        }
    }

    /**
     * Serves another node's {@link AppendMessage}: queues its commands into this node's committer if this node leads
     * the partition, and answers once their entries are committed; at once otherwise.
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
        CompletableFuture<Void> queued;
        try {
            queued = node.committer(partition).submitEntry(append.entry().unsafeArray());
        } catch (OverloadedException e) {
            answer.accept(new AppendReply(append.id(), AppendReply.Status.OVERLOADED, String.valueOf(e.getMessage())));
            return;
        } catch (MalformedInputException | UnsupportedVersionException | IllegalStateException e) {
            answer.accept(new AppendReply(append.id(), AppendReply.Status.FAILED, e.toString()));
            return;
        }
        queued.whenComplete((ok, failure) -> {
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

    /** Commands handed to their partition's leader so far. */
    long handedOff() {
        return handedOff.sum();
    }

    /** The messages that carried them. */
    long messages() {
        return messages.sum();
    }

    /** Of those commands, the ones that went through Ratis's client after all. */
    long fellBack() {
        return fellBack.sum();
    }

    /** Commands handed off and not answered yet. */
    int waiting() {
        return commandsWaiting.get();
    }
}
