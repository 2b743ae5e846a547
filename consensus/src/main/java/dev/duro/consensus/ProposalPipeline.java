package dev.duro.consensus;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.OverloadedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * The flow control of a {@link GroupCommitter}, without Raft: commands wait in a {@link ProposalQueue}, go out as
 * log entries of at most {@code raft.batch-commands-max} commands and {@code raft.batch-bytes-max} bytes, with at
 * most {@code raft.proposals-in-flight-max} entries proposed and not yet answered; each command's future follows
 * its entry's answer. The committer proposes the entries to the partition's Raft group ({@link Proposer}).
 *
 * <p>An entry whose turn has come waits up to {@code raft.batch-linger-micros} for more commands when the partition
 * is busy, which the entry before it shows by carrying more than one commit request. On this machine what a log entry costs
 * (the appends, syncs and messages of every replica) outweighs what its transactions cost at tens of clients, so
 * fewer, fuller entries spend less CPU per transaction; a single client, whose entries carry one command, never
 * waits. An entry that is already full, or that carries a decision, an abort request or a cut (which transactions
 * already in the log, and read-only ones, wait for), goes at once (docs/performance.md, "Entries that wait for
 * company").
 *
 * <p>Thread-safe. The proposer is called outside the pipeline's lock, and its answer may come on any thread.
 */
final class ProposalPipeline {
    /** Runs a task after a delay, on a thread of its own: the lingering entry's timer. */
    @FunctionalInterface
    interface Delays {
        void after(long nanos, Runnable task);
    }

    /** Proposes one log entry. */
    @FunctionalInterface
    interface Proposer {
        /**
         * Proposes the entry made of {@code encodedCommands}, in their order, and calls {@code answered} once:
         * with null when the entry is committed and applied, else with the reason it is not.
         */
        void propose(List<byte[]> encodedCommands, Consumer<Throwable> answered);
    }

    private record Queued(byte[] encoded, boolean urgent, CompletableFuture<Void> appended)
            implements ProposalQueue.Sized {
        @Override
        public int bytes() {
            return encoded.length;
        }
    }

    private final int partition;
    private final Proposer proposer;
    private final int inFlightMax;
    private final long lingerNanos;
    private final Delays delays;

    @GuardedBy("this")
    private final ProposalQueue<Queued> queue;
    /** Entries proposed and not yet answered; at most {@link #inFlightMax}. */
    @GuardedBy("this")
    private int inFlight;

    @GuardedBy("this")
    private boolean closed;

    /**
     * Commit requests in the last entry proposed: more than one, and the next entry waits for company. Decisions and
     * cuts do not count: they follow global transactions and the chain's clock, not how many clients commit here.
     */
    @GuardedBy("this")
    private int lastEntryCommits;

    /** The next entry waits: its timer is set and has not fired yet. */
    @GuardedBy("this")
    private boolean lingering;

    /** Waits begun so far; a timer that fires for an earlier one finds its entry gone. */
    @GuardedBy("this")
    private long lingers;

    /** The next entry has waited: it goes with whatever is queued. */
    @GuardedBy("this")
    private boolean lingered;

    @GuardedBy("this")
    private long entriesSent;

    @GuardedBy("this")
    private long commandsSent;

    /** A pipeline that never lingers ({@code raft.batch-linger-micros} is ignored): proposals go at once. */
    ProposalPipeline(int partition, ConsensusSettings settings, Proposer proposer) {
        this(partition, settings, proposer, null);
    }

    /**
     * @param delays the timer of a lingering entry; null never lingers, whatever {@code raft.batch-linger-micros}
     */
    ProposalPipeline(int partition, ConsensusSettings settings, Proposer proposer, @Nullable Delays delays) {
        this.partition = partition;
        this.proposer = proposer;
        this.queue = new ProposalQueue<>(partition, settings);
        this.inFlightMax = settings.proposalsInFlightMax();
        this.lingerNanos = delays == null ? 0 : TimeUnit.MICROSECONDS.toNanos(settings.batchLingerMicros());
        this.delays = delays == null ? (nanos, task) -> task.run() : delays;
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
            queue.add(new Queued(encoded, urgent, appended), urgent);
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
                if (lingering) {
                    if (!mustGoNow()) {
                        return; // still waiting for company
                    }
                    lingering = false; // cut short: its timer, when it fires, finds a later linger or none
                } else if (shouldLinger()) {
                    long linger = ++lingers;
                    try {
                        // The timer takes this lock before it looks: it sees the flag even if it fires at once.
                        delays.after(lingerNanos, () -> lingerEnded(linger));
                        lingering = true;
                        return;
                    } catch (RejectedExecutionException closing) {
                        // The node is closing and has no timer left: the entry goes now.
                    }
                }
                lingered = false;
                batch = queue.nextBatch();
                lastEntryCommits = commitsIn(batch);
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

    @GuardedBy("this")
    private boolean shouldLinger() {
        return lingerNanos > 0 && !lingered && lastEntryCommits > 1 && !mustGoNow();
    }

    private static int commitsIn(List<Queued> batch) {
        int commits = 0;
        for (Queued queued : batch) {
            if (!queued.urgent()) {
                commits++;
            }
        }
        return commits;
    }

    /** An entry that is full, or that carries a command others wait for, does not wait for company. */
    @GuardedBy("this")
    private boolean mustGoNow() {
        return queue.hasUrgent() || queue.fillsAnEntry();
    }

    /** The timer of the {@code linger}th wait: if the entry still waits, it goes now with what has come. */
    private void lingerEnded(long linger) {
        synchronized (this) {
            if (!lingering || linger != lingers) {
                return; // that entry went already
            }
            lingering = false;
            lingered = true;
        }
        sendNext();
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
