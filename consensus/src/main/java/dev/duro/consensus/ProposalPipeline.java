package dev.duro.consensus;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.OverloadedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * The flow control of a {@link GroupCommitter}, without Raft: commands wait in a {@link ProposalQueue}, go out as
 * log entries of at most {@code raft.batch-commands-max} commands and {@code raft.batch-bytes-max} bytes, with at
 * most {@code raft.proposals-in-flight-max} entries proposed and not yet answered; each command's future follows
 * its entry's answer. The committer proposes the entries to the partition's Raft group ({@link Proposer}).
 *
 * <p>Thread-safe. The proposer is called outside the pipeline's lock, and its answer may come on any thread.
 */
final class ProposalPipeline {
    /** Proposes one log entry. */
    @FunctionalInterface
    interface Proposer {
        /**
         * Proposes the entry made of {@code encodedCommands}, in their order, and calls {@code answered} once:
         * with null when the entry is committed and applied, else with the reason it is not.
         */
        void propose(List<byte[]> encodedCommands, Consumer<Throwable> answered);
    }

    private record Queued(byte[] encoded, CompletableFuture<Void> appended) implements ProposalQueue.Sized {
        @Override
        public int bytes() {
            return encoded.length;
        }
    }

    private final int partition;
    private final Proposer proposer;
    private final int inFlightMax;

    @GuardedBy("this")
    private final ProposalQueue<Queued> queue;
    /** Entries proposed and not yet answered; at most {@link #inFlightMax}. */
    @GuardedBy("this")
    private int inFlight;

    @GuardedBy("this")
    private boolean closed;

    @GuardedBy("this")
    private long entriesSent;

    @GuardedBy("this")
    private long commandsSent;

    ProposalPipeline(int partition, ConsensusSettings settings, Proposer proposer) {
        this.partition = partition;
        this.proposer = proposer;
        this.queue = new ProposalQueue<>(partition, settings);
        this.inFlightMax = settings.proposalsInFlightMax();
    }

    /**
     * Queues an encoded command: in the urgent lane (decisions, abort requests, cuts), which each entry drains
     * first, or behind the commit requests. The future completes when its entry is committed and applied.
     *
     * @throws OverloadedException if its lane already holds {@code raft.queued-bytes-max}
     * @throws IllegalStateException once closed
     */
    CompletableFuture<Void> submit(byte[] encoded, boolean urgent) {
        CompletableFuture<Void> appended = new CompletableFuture<>();
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("partition " + partition + " committer is closed");
            }
            queue.add(new Queued(encoded, appended), urgent);
        }
        sendNext();
        return appended;
    }

    private void sendNext() {
        // A loop, not a recursion: a proposer that throws fails its entry and frees its slot for the next one.
        while (true) {
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
            try {
                proposer.propose(encoded, error -> finished(batch, error));
                return;
            } catch (RuntimeException e) {
                // Never answered now: without this, its slot stayed taken and the partition's queue stalled.
                complete(batch, e);
                synchronized (this) {
                    inFlight--;
                }
            }
        }
    }

    private void finished(List<Queued> batch, @Nullable Throwable error) {
        complete(batch, error);
        synchronized (this) {
            inFlight--;
        }
        sendNext();
    }

    private static void complete(List<Queued> batch, @Nullable Throwable error) {
        for (Queued queued : batch) {
            if (error == null) {
                queued.appended().complete(null);
            } else {
                queued.appended().completeExceptionally(error);
            }
        }
    }

    synchronized long entriesSent() {
        return entriesSent;
    }

    synchronized long commandsSent() {
        return commandsSent;
    }

    /**
     * Refuses further commands and fails the queued ones ("shutting down"); entries already proposed are answered
     * by their proposal.
     */
    void close() {
        List<Queued> abandoned;
        synchronized (this) {
            closed = true;
            abandoned = queue.drain();
        }
        for (Queued queued : abandoned) {
            queued.appended().completeExceptionally(new IOException("shutting down"));
        }
    }
}
