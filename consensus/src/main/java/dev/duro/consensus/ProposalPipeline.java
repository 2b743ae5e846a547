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
 * <p>An entry whose turn has come waits for more commands when the partition is busy, which the entry before it shows
 * by carrying more than one commit request: for half the time the last entry took from its proposal to its answer,
 * and at most {@code raft.batch-linger-micros}. What a log entry costs (the appends, syncs and messages of every
 * replica) outweighs what its transactions cost at tens of clients, so fewer, fuller entries spend less CPU per
 * transaction. A wait that is a fraction of a round costs at most that fraction of a transaction's time, and follows
 * the machine and the load: rounds are long where entries are dear (slow system calls, a saturated CPU), and there
 * the wait saves most (docs/performance.md, "Waits as long as half a round"). A single client, whose entries carry
 * one command, never waits. An entry that is already full, or that carries an abort request or a cut (which a stuck
 * global transaction and read-only transactions wait for), goes at once (docs/performance.md, "Entries that wait for
 * company"). A decision waits with the entry it rides in ({@link ProposalQueue.Lane#DECISION}).
 *
 * <p>Thread-safe. The proposer is called outside the pipeline's lock, and its answer may come on any thread.
 */
final class ProposalPipeline {
    /** Runs a task after a delay, on a thread of its own: the lingering entry's timer, and its clock. */
    @FunctionalInterface
    interface Delays {
        void after(long nanos, Runnable task);

        /** The clock the rounds of entries are timed with ({@link System#nanoTime}). */
        default long nanoTime() {
            return System.nanoTime();
        }
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

    private record Queued(byte[] encoded, CompletableFuture<Void> appended) implements ProposalQueue.Sized {
        @Override
        public int bytes() {
            return encoded.length;
        }
    }

    private final int partition;
    private final Proposer proposer;
    private final int inFlightMax;
    /** {@code raft.batch-linger-micros}: the longest an entry waits for company. */
    private final long lingerMaxNanos;
    /** The timer of waiting entries; null never waits. */
    private final @Nullable Delays delays;

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

    /** The wait of the next entry, whose timer has not fired yet; null when it does not wait. */
    @GuardedBy("this")
    private @Nullable Wait waiting;

    /** One entry's wait for company; its timer, when it fires, sends the entry if that is still waiting. */
    private final class Wait implements Runnable {
        @Override
        public void run() {
            sendNext(this);
        }
    }

    /**
     * How long the last entry answered took from its proposal to its answer; -1 before the first. An entry waits for
     * company half as long, at most {@link #lingerMaxNanos}.
     */
    @GuardedBy("this")
    private long lastRoundNanos = -1;

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
        this.lingerMaxNanos = TimeUnit.MICROSECONDS.toNanos(settings.batchLingerMicros());
        this.delays = delays;
    }

    /**
     * Queues an encoded command at the end of {@code lane}. The future completes when its entry is committed and
     * applied.
     *
     * @throws OverloadedException if its lane already holds {@code raft.queued-bytes-max}
     * @throws IllegalStateException once closed
     */
    CompletableFuture<Void> submit(byte[] encoded, ProposalQueue.Lane lane) {
        CompletableFuture<Void> appended = new CompletableFuture<>();
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("partition " + partition + " committer is closed");
            }
            queue.add(new Queued(encoded, appended), lane);
        }
        sendNext();
        return appended;
    }

    /**
     * Queues encoded commands all together or not at all, each in its lane ({@code lanes[i]}); the future completes
     * when every one's entry is committed and applied, or fails with the first failure.
     *
     * @throws OverloadedException if a lane would go past {@code raft.queued-bytes-max}: none was queued
     * @throws IllegalStateException once closed
     */
    CompletableFuture<Void> submitAll(List<byte[]> encoded, ProposalQueue.Lane[] lanes) {
        List<Queued> items = new ArrayList<>(encoded.size());
        CompletableFuture<?>[] appended = new CompletableFuture<?>[encoded.size()];
        for (int i = 0; i < encoded.size(); i++) {
            Queued queued = new Queued(encoded.get(i), new CompletableFuture<>());
            items.add(queued);
            appended[i] = queued.appended();
        }
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("partition " + partition + " committer is closed");
            }
            queue.addAll(items, lanes);
        }
        sendNext();
        return CompletableFuture.allOf(appended);
    }

    private void sendNext() {
        sendNext(null);
    }

    /** @param ended the wait whose timer fired, if that is why: its entry goes now with what has come */
    private void sendNext(@Nullable Wait ended) {
        // A loop, not a recursion: a proposer that throws fails its entry and frees its slot for the next one.
        while (true) {
            List<Queued> batch;
            synchronized (this) {
                boolean waited = ended != null;
                if (waited) {
                    if (waiting != ended) {
                        return; // that entry went already: it filled up, or an abort request or a cut came
                    }
                    waiting = null;
                    ended = null; // the next turn of the loop, if any, is another entry
                }
                if (inFlight >= inFlightMax || queue.isEmpty()) {
                    return;
                }
                if (waiting != null) {
                    if (!mustGoNow()) {
                        return; // still waiting for company
                    }
                    waiting = null; // cut short: its timer will find it gone
                } else if (!waited && delays != null && shouldWait()) {
                    Wait wait = new Wait();
                    try {
                        // The timer takes this lock before it looks: it sees the wait even if it fires at once.
                        delays.after(lingerNanos(), wait);
                        waiting = wait;
                        return;
                    } catch (RejectedExecutionException closing) {
                        // The node is closing and has no timer left: the entry goes now.
                    }
                }
                int urgent = queue.urgentQueued();
                batch = queue.nextBatch();
                lastEntryCommits = Math.max(0, batch.size() - urgent); // it takes control and decisions first
                inFlight++;
                entriesSent++;
                commandsSent += batch.size();
            }
            List<byte[]> encoded = new ArrayList<>(batch.size());
            for (Queued queued : batch) {
                encoded.add(queued.encoded());
            }
            long proposedAt = delays == null ? 0 : delays.nanoTime();
            try {
                proposer.propose(encoded, error -> finished(batch, error, proposedAt));
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

    /** The partition is busy (the last entry carried several commit requests) and the next entry need not go yet. */
    @GuardedBy("this")
    private boolean shouldWait() {
        return lastEntryCommits > 1 && lingerNanos() > 0 && !mustGoNow();
    }

    /** How long the next entry waits for company: half the last round, at most {@code raft.batch-linger-micros}. */
    @GuardedBy("this")
    private long lingerNanos() {
        return lastRoundNanos < 0 ? lingerMaxNanos : Math.min(lingerMaxNanos, lastRoundNanos / 2);
    }

    /** An entry that is full, or that carries a control command others wait for, does not wait for company. */
    @GuardedBy("this")
    private boolean mustGoNow() {
        return queue.controlQueued() > 0 || queue.fillsAnEntry();
    }

    private void finished(List<Queued> batch, @Nullable Throwable error, long proposedAt) {
        // Timed before the commands' futures complete: their callbacks run on this thread, and are no part of the
        // round.
        long answeredAt = delays == null ? 0 : delays.nanoTime();
        complete(batch, error);
        synchronized (this) {
            inFlight--;
            if (error == null && delays != null) {
                lastRoundNanos = Math.max(0, answeredAt - proposedAt);
            }
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
