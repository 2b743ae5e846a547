package dev.duro.consensus;

import dev.duro.core.OverloadedException;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.Decision;
import dev.duro.core.node.LogEntryCodec;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Group commit into one partition's log: at most {@code raft.proposals-in-flight-max} proposals in flight from
 * this node to the partition; commands submitted meanwhile accumulate and go out together as the next log entry,
 * bounded by count and bytes, which waits for company when the partition is busy (half a round, at most {@code
 * raft.batch-linger-micros}; {@link ProposalPipeline}). A single client sees one round trip; many clients share
 * entries, so throughput is entries per second times commands per entry.
 *
 * <p>Commands other than commit requests (abort requests and cuts, then decisions) go first: {@link ProposalQueue}.
 *
 * <p>Where a command goes: while this node leads the partition, into this committer's entries, which go straight to
 * this node's replica ({@link LocalLeader}); otherwise to the leader's node ({@link CommandHandoff}), whose committer
 * queues it into its own entries ({@link #submitEntry}); and when neither can take it, into this committer's entries,
 * proposed through Ratis's client (docs/replication.md, "Appends go to the leader").
 *
 * <p>The returned future completes when the entry holding the command is committed and applied at the leader.
 * The transaction's outcome arrives separately, from the engine's reply effect.
 */
public final class GroupCommitter implements Closeable {
    private final int partition;
    private final RaftClient client;
    /** Spares the client's loopback round trip while this node's replica leads the partition. */
    private final LocalLeader local;
    /** Entries proposed through {@link #local} and committed: {@link #entriesCommittedLocally()}. */
    private final AtomicLong committedLocally = new AtomicLong();
    /** Hands commands to the partition's leader on another node, while this node does not lead it. */
    private final CommandHandoff handoff;
    /** Commands the leader on another node took into its own entries: {@link #commandsHandedOff()}. */
    private final AtomicLong handedOff = new AtomicLong();
    /** Entries proposed through {@link #client}, to the node it finds leading: {@link #entriesThroughClient()}. */
    private final AtomicLong throughClient = new AtomicLong();

    private final CommandBatches batches;
    /** Queueing, batching and the limit on proposals in flight; this class only proposes to Raft. */
    private final ProposalPipeline pipeline;

    /**
     * @param delays the node's timer for entries that wait for more commands ({@code raft.batch-linger-micros})
     */
    GroupCommitter(
            int partition,
            RaftClient client,
            LocalLeader local,
            CommandHandoff handoff,
            CommandBatches batches,
            ConsensusSettings settings,
            ProposalPipeline.Delays delays) {
        this.partition = partition;
        this.client = client;
        this.local = local;
        this.handoff = handoff;
        this.batches = batches;
        this.pipeline = new ProposalPipeline(partition, settings, this::propose, delays);
    }

    /**
     * Appends a command to the partition's log: hands it to the partition's leader on another node, or queues it.
     *
     * @throws OverloadedException if {@code raft.queued-bytes-max} is reached
     */
    public CompletableFuture<Void> submit(Command command) {
        byte[] encoded = batches.encodeCommand(command);
        ProposalQueue.Lane lane = laneOf(command);
        CompletableFuture<Void> handed = handoff.handOff(partition, encoded);
        if (handed == null) {
            return pipeline.submit(encoded, lane); // this node leads (the common case), or no handoff can be made
        }
        CompletableFuture<Void> appended = new CompletableFuture<>();
        handed.whenComplete((ok, failure) -> {
            if (failure == null) {
                handedOff.incrementAndGet();
                appended.complete(null);
            } else if (failure instanceof OverloadedException) {
                appended.completeExceptionally(failure); // not queued at the leader: it fails as overloaded
            } else {
                queueAfterAll(encoded, lane, appended);
            }
        });
        return appended;
    }

    /** A handoff that failed: the command goes into this committer's entries, through Ratis's client. */
    private void queueAfterAll(byte[] encoded, ProposalQueue.Lane lane, CompletableFuture<Void> appended) {
        try {
            pipeline.submit(encoded, lane).whenComplete((ok, failure) -> {
                if (failure == null) {
                    appended.complete(null);
                } else {
                    appended.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException e) {
            appended.completeExceptionally(e); // this node's queue is full, or it is closing
        }
    }

    /**
     * Queues the commands of an entry another node gathered for this node's ({@link CommandHandoff}), all or
     * none, each in its lane as {@link #submit} would queue it, without encoding them again. The future completes
     * when every one is in an entry committed and applied.
     *
     * @throws dev.duro.core.codec.MalformedInputException if {@code entry} is no valid entry, or holds a command
     *     this partition does not take part in
     * @throws dev.duro.core.codec.UnsupportedVersionException if it is of another format than this build writes
     * @throws OverloadedException if {@code raft.queued-bytes-max} is reached: nothing was queued
     */
    public CompletableFuture<Void> submitEntry(byte[] entry) {
        List<LogEntryCodec.Split> commands = batches.split(entry);
        List<byte[]> encoded = new ArrayList<>(commands.size());
        ProposalQueue.Lane[] lanes = new ProposalQueue.Lane[commands.size()];
        for (int i = 0; i < commands.size(); i++) {
            Command command = commands.get(i).command();
            if (!command.participants().contains(partition)) {
                throw new MalformedInputException("an entry for partition " + partition + " holds " + command.tid()
                        + ", which does not take part in it");
            }
            encoded.add(commands.get(i).encoded());
            lanes[i] = laneOf(command);
        }
        return pipeline.submitAll(encoded, lanes);
    }

    /** The lane of {@link ProposalQueue} that {@code command} waits in. */
    static ProposalQueue.Lane laneOf(Command command) {
        if (command instanceof CommitRequest) {
            return ProposalQueue.Lane.COMMIT;
        }
        return command instanceof Decision ? ProposalQueue.Lane.DECISION : ProposalQueue.Lane.CONTROL;
    }

    private void propose(List<byte[]> encoded, Consumer<Throwable> answered) {
        // The joined array is fresh and never touched again: wrap it rather than copy it once more.
        Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(batches.join(encoded)));
        CompletableFuture<RaftClientReply> proposedHere = local.submit(message);
        if (proposedHere == null) {
            proposeThroughClient(message, answered);
            return;
        }
        // Any answer but success (not the leader any more, not ready yet, too many pending requests, closing) sends
        // the entry through the client, which finds the leader and retries as it always has. An entry a leader
        // appended before it stepped down may so be appended twice, as the client's own retries always could; the
        // engine certifies a transaction id once (docs/window-safety.md).
        proposedHere.whenComplete((reply, failure) -> {
            if (failure == null && reply.isSuccess()) {
                committedLocally.incrementAndGet();
                answered.accept(null);
                return;
            }
            try {
                proposeThroughClient(message, answered);
            } catch (RuntimeException closed) {
                answered.accept(closed); // a client that cannot even send fails the entry rather than leave it
            }
        });
    }

    private void proposeThroughClient(Message message, Consumer<Throwable> answered) {
        throughClient.incrementAndGet();
        client.async()
                .send(message)
                .whenComplete((reply, failure) ->
                        answered.accept(failure != null ? failure : reply.isSuccess() ? null : reply.getException()));
    }

    public int partition() {
        return partition;
    }

    /** Log entries proposed so far. */
    public long entriesSent() {
        return pipeline.entriesSent();
    }

    /** Log entries proposed straight to this node's replica while it led, and committed. */
    public long entriesCommittedLocally() {
        return committedLocally.get();
    }

    /** Commands handed to the partition's leader on another node and committed in its entries. */
    public long commandsHandedOff() {
        return handedOff.get();
    }

    /**
     * Proposals made through Ratis's client: entries neither this node's replica nor the leader's node took, each an
     * entry of its own in the log (a retried entry counts once per try).
     */
    public long entriesThroughClient() {
        return throughClient.get();
    }

    /** Commands proposed so far; divided by {@link #entriesSent()} it is the mean batch size. */
    public long commandsSent() {
        return pipeline.commandsSent();
    }

    @Override
    public void close() throws IOException {
        pipeline.close();
        client.close();
    }
}
