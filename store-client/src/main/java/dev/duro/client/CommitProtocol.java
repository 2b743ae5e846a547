package dev.duro.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.wire.CommitTransaction;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * One {@link Transaction}'s life (the diagram in its documentation) and what its commit freezes. It owns the state,
 * the {@link Footprint} recorded while the transaction is open, and the commit: the request computed once
 * ({@link FrozenCommit}), sent until an outcome is known, each answer settled into the next state.
 *
 * <p>Recording into the footprint and freezing it share this object's lock: a read sent while open that completes
 * after the commit started must not enter the footprint, since the request no longer changes. It sends no read of
 * its own except through {@link SnapshotReads}, to fix the snapshots that blind writes need.
 */
final class CommitProtocol {
    static final String READS_FROZEN = "it reads no more (a read now would not be certified with it)";
    static final String WRITES_FROZEN = "its writes are frozen";

    private enum State {
        OPEN("open"),
        COMMITTING("committing"),
        COMMITTED("committed"),
        ABORTED("aborted"),
        OUTCOME_LOST("of unknown outcome: it may have committed, and no server retains its outcome"),
        ROLLED_BACK("rolled back");

        private final String description;

        State(String description) {
            this.description = description;
        }
    }

    private final DuroClient client;
    private final TxId tid;
    /** Guarded by this object's lock, which the commit takes to freeze it. */
    @GuardedBy("this")
    private final Footprint footprint = new Footprint();
    /** Volatile: the I/O threads that complete a commit move it on, and a read completing there checks it. */
    private volatile State state = State.OPEN;

    private @Nullable CommitResult result;
    /** Set once, when the commit's snapshots are all fixed; never recomputed. */
    private @Nullable FrozenCommit frozen;
    /** The commit under way, so that a second call while it runs waits for it instead of sending again. */
    private @Nullable CompletableFuture<CommitResult> commitInFlight;
    /** Why a commit ended for good without committing: rethrown by every later commit. */
    private @Nullable DuroException endedWithout;

    CommitProtocol(DuroClient client, TxId tid) {
        this.client = client;
        this.tid = tid;
    }

    // ---- the footprint, while open ----

    /**
     * Adds keys whose values reached the application to the read set. A read sent while open that comes back after
     * the commit started is not in the request: its value must not reach the application as if the transaction
     * had read it. Under the lock that the commit takes to freeze the transaction.
     */
    synchronized void recordReads(List<Bytes> keys, int partition) {
        requireOpen(READS_FROZEN);
        footprint.addReads(keys, partition);
    }

    /** Adds what a scan observed to the footprint, if the transaction is still open (as {@link #recordReads}). */
    synchronized void recordScans(Map<Integer, List<KeyRange>> observed) {
        requireOpen(READS_FROZEN);
        footprint.addScanned(observed, client.limits());
    }

    synchronized @Nullable Write written(Bytes key) {
        return footprint.written(key);
    }

    synchronized List<Write> writesIn(KeyRange range) {
        return footprint.writesIn(range);
    }

    /** Buffers {@code write} once the transaction's key limit allows the key; a key it has already counts once. */
    synchronized void buffer(Write write, int partition, Limits limits) {
        footprint.checkMoreKeys(List.of(write.key()), limits);
        footprint.buffer(write, partition);
    }

    /** Checks the transaction's key limit before it reads {@code keys}; keys it has already count once. */
    synchronized void checkMoreKeys(List<Bytes> keys, Limits limits) {
        footprint.checkMoreKeys(keys, limits);
    }

    /** The snapshot fixed at {@code partition}, or null if no read has fixed it yet. */
    synchronized @Nullable Long snapshotAt(int partition) {
        return footprint.snapshotAt(partition);
    }

    /**
     * Fixes {@code partition}'s snapshot to {@code served} unless a read fixed it already, and returns the fixed one.
     * Two reads sent before either came back both ask for the latest snapshot and may be served at different ones:
     * the one that differs from the fixed snapshot must be read again there, or the transaction would certify at
     * a snapshot newer than a value it read.
     */
    synchronized long fixSnapshot(int partition, long served) {
        return footprint.fixSnapshot(partition, served);
    }

    // ---- the commit ----

    /** {@link Transaction#commitAsync}; {@code reads} fixes the snapshots that blind writes still miss. */
    CompletableFuture<CommitResult> commitAsync(SnapshotReads reads) {
        switch (state) {
            case OPEN -> {
                synchronized (this) { // reads that complete from now on are not recorded (recordReads)
                    if (footprint.readOnlyAtOnePartition()) {
                        // Its snapshot is consistent, nothing to certify (S-DUR §III-B).
                        return CompletableFuture.completedFuture(finish(new CommitResult(tid, Map.of())));
                    }
                    state = State.COMMITTING;
                }
            }
            case COMMITTING -> {
                CompletableFuture<CommitResult> running = commitInFlight;
                if (running != null && !running.isDone()) {
                    return running;
                }
            }
            case COMMITTED -> {
                return CompletableFuture.completedFuture(result());
            }
            case ABORTED, OUTCOME_LOST -> {
                return CompletableFuture.failedFuture(Objects.requireNonNull(endedWithout, "endedWithout"));
            }
            case ROLLED_BACK -> throw new IllegalStateException("transaction " + tid + " is rolled back");
        }
        CompletableFuture<CommitResult> sent =
                frozenCommit(reads).thenCompose(commit -> commit.send(client)).thenApply(this::settle);
        commitInFlight = sent;
        return sent;
    }

    /**
     * The request, computed on the first call that finds every snapshot fixed. A blind write to a partition not
     * read yet first fixes the snapshot there (ws ⊆ rs); when that fails, the next call fixes only the ones still
     * missing.
     */
    private CompletableFuture<FrozenCommit> frozenCommit(SnapshotReads reads) {
        FrozenCommit done = frozen;
        if (done != null) {
            return CompletableFuture.completedFuture(done);
        }
        return fixMissingSnapshots(reads).thenApply(ignored -> {
            if (frozen == null) {
                frozen = new FrozenCommit(tid, participants());
            }
            return frozen;
        });
    }

    private CompletableFuture<Void> fixMissingSnapshots(SnapshotReads reads) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        Map<Integer, Bytes> unread;
        synchronized (this) {
            unread = footprint.writtenUnread();
        }
        for (Map.Entry<Integer, Bytes> entry : unread.entrySet()) {
            chain = chain.thenCompose(
                    ignored -> reads.read(entry.getKey(), entry.getValue()).thenApply(value -> null));
        }
        return chain;
    }

    private synchronized List<CommitTransaction.Participant> participants() {
        return footprint.participants();
    }

    /** Moves the transaction on by one send's answer; throws what the caller must see. */
    private CommitResult settle(FrozenCommit.Answer answer) {
        if (answer instanceof FrozenCommit.Decided decided) {
            Outcome outcome = decided.outcome();
            if (outcome.committed()) {
                Map<Integer, Long> versions = new TreeMap<>();
                for (int partition : outcome.participants()) {
                    versions.put(partition, outcome.versionAt(partition));
                }
                return finish(new CommitResult(tid, versions));
            }
            AbortReason reason = Objects.requireNonNull(outcome.reason(), "an aborted outcome's reason");
            throw endFor(State.ABORTED, new TransactionAbortedException(reason));
        }
        if (answer instanceof FrozenCommit.OutcomeLost lost) {
            throw endFor(State.OUTCOME_LOST, lost.error());
        }
        if (answer instanceof FrozenCommit.Unanswered unanswered) {
            throw unanswered.error(); // still committing: the next commit() resends
        }
        throw ((FrozenCommit.Refused) answer).error(); // still committing: it may have reached a log before
    }

    private DuroException endFor(State end, DuroException why) {
        endedWithout = why;
        state = end;
        return why;
    }

    private CommitResult finish(CommitResult committed) {
        result = committed;
        state = State.COMMITTED;
        client.recordCommit(committed);
        return committed;
    }

    /** {@link Transaction#commitSent}. */
    boolean commitSent() {
        return frozen != null;
    }

    /** {@link Transaction#outcomeLost}. */
    boolean outcomeLost() {
        return state == State.OUTCOME_LOST;
    }

    /** {@link Transaction#result}. */
    CommitResult result() {
        if (result == null) {
            throw new IllegalStateException("transaction " + tid + " has not committed");
        }
        return result;
    }

    // ---- ending without a commit ----

    /** {@link Transaction#rollback}. */
    void rollback() {
        switch (state) {
            case OPEN -> state = State.ROLLED_BACK;
            case COMMITTING, OUTCOME_LOST -> throw new IllegalStateException("transaction " + tid + " is "
                    + state.description + "; a commit already started cannot be rolled back");
            case COMMITTED, ABORTED, ROLLED_BACK -> {}
        }
    }

    /** {@link Transaction#close}. */
    void close() {
        if (state == State.OPEN) {
            state = State.ROLLED_BACK;
        }
    }

    /** Refuses a read or write once the transaction is no longer open, saying what follows ({@code consequence}). */
    void requireOpen(String consequence) {
        State current = state;
        if (current != State.OPEN) {
            throw new IllegalStateException("transaction " + tid + " is " + current.description + "; " + consequence);
        }
    }
}
