package dev.duro.consensus;

import dev.duro.core.OverloadedException;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import java.io.Closeable;
import java.io.IOException;
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
 * bounded by count and bytes, which waits up to {@code raft.batch-linger-micros} for company when the partition is
 * busy ({@link ProposalPipeline}). A single client sees one round trip; many clients share entries, so throughput is entries per second
 * times commands per entry.
 *
 * <p>Commands other than commit requests (decisions, abort requests, cuts) go first: {@link ProposalQueue}.
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
            CommandBatches batches,
            ConsensusSettings settings,
            ProposalPipeline.Delays delays) {
        this.partition = partition;
        this.client = client;
        this.local = local;
        this.batches = batches;
        this.pipeline = new ProposalPipeline(partition, settings, this::propose, delays);
    }

    /**
     * Queues a command for the partition's log.
     *
     * @throws OverloadedException if {@code raft.queued-bytes-max} is reached
     */
    public CompletableFuture<Void> submit(Command command) {
        return pipeline.submit(batches.encodeCommand(command), !(command instanceof CommitRequest));
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
