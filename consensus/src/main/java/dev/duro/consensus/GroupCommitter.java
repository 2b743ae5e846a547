package dev.duro.consensus;

import dev.duro.core.OverloadedException;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Group commit into one partition's log: at most one proposal in flight from this node to the partition;
 * commands submitted meanwhile accumulate and go out together as the next log entry, bounded by count and
 * bytes. A single client sees one round trip; many clients share entries, so throughput is entries per second
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
    private final CommandBatches batches;

    private final ProposalQueue<Queued> queue;
    /** Entries proposed and not yet answered; at most {@code raft.proposals-in-flight-max}. */
    private int inFlight;

    private final int inFlightMax;
    private boolean closed;

    private long entriesSent;
    private long commandsSent;

    private record Queued(byte[] encoded, CompletableFuture<Void> appended) implements ProposalQueue.Sized {
        @Override
        public int bytes() {
            return encoded.length;
        }
    }

    GroupCommitter(int partition, RaftClient client, CommandBatches batches, ConsensusSettings settings) {
        this.partition = partition;
        this.client = client;
        this.batches = batches;
        this.queue = new ProposalQueue<>(partition, settings);
        this.inFlightMax = settings.proposalsInFlightMax();
    }

    /**
     * Queues a command for the partition's log.
     *
     * @throws OverloadedException if {@code raft.queued-bytes-max} is reached
     */
    public CompletableFuture<Void> submit(Command command) {
        byte[] encoded = batches.encodeCommand(command);
        CompletableFuture<Void> appended = new CompletableFuture<>();
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("partition " + partition + " committer is closed");
            }
            queue.add(new Queued(encoded, appended), !(command instanceof CommitRequest));
        }
        sendNext();
        return appended;
    }

    private void sendNext() {
        List<Queued> batch;
        synchronized (this) {
            if (inFlight >= inFlightMax || queue.isEmpty()) {
                return;
            }
            batch = queue.nextBatch();
            inFlight++;
            entriesSent++;
            commandsSent += batch.size();
        }
        List<byte[]> encoded = new ArrayList<>(batch.size());
        for (Queued queued : batch) {
            encoded.add(queued.encoded());
        }
        // The joined array is fresh and never touched again: wrap it rather than copy it once more.
        Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(batches.join(encoded)));
        client.async().send(message).whenComplete((reply, failure) -> finished(batch, reply, failure));
    }

    private void finished(List<Queued> batch, RaftClientReply reply, Throwable failure) {
        Throwable error = failure != null ? failure : reply.isSuccess() ? null : reply.getException();
        for (Queued queued : batch) {
            if (error == null) {
                queued.appended().complete(null);
            } else {
                queued.appended().completeExceptionally(error);
            }
        }
        synchronized (this) {
            inFlight--;
        }
        sendNext();
    }

    /** Log entries proposed so far. */
    public int partition() {
        return partition;
    }

    public synchronized long entriesSent() {
        return entriesSent;
    }

    /** Commands proposed so far; divided by {@link #entriesSent()} it is the mean batch size. */
    public synchronized long commandsSent() {
        return commandsSent;
    }

    @Override
    public void close() throws IOException {
        List<Queued> abandoned;
        synchronized (this) {
            closed = true;
            abandoned = queue.drain();
        }
        for (Queued queued : abandoned) {
            queued.appended().completeExceptionally(new IOException("shutting down"));
        }
        client.close();
    }
}
