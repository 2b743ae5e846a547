package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.MultiReadReply;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ScanReply;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import javax.annotation.Nullable;

/**
 * An update transaction (S-DUR Algorithm 3). Reads go to any replica of the key's partition; the first read at
 * a partition fixes the transaction's snapshot there. Writes are buffered and sent at commit, where every
 * partition touched certifies the transaction. Not thread-safe; close it (or commit it) when done.
 *
 * <p>Its life, one way only:
 *
 * <pre>
 *   OPEN ──commit──▶ COMMITTING ──outcome──▶ COMMITTED | ABORTED
 *     │                  │  ▲
 *     │                  │  └─ no coordinator answered, or one refused: commit() again resends the same request
 *     │                  └─ the servers no longer retain the outcome ──▶ OUTCOME_LOST
 *     └──rollback──▶ ROLLED_BACK
 * </pre>
 *
 * Only an open transaction reads and writes. From the moment its commit starts it is frozen: the request (its
 * participants with their snapshots, read sets and write sets) is computed once, and every later send, to
 * another coordinator or from another {@link #commit()}, carries exactly that content under the same id (see
 * {@link FrozenCommit} for why). Reads are frozen too: a read answered now would not be certified with the
 * transaction, so its value could contradict what the transaction committed.
 *
 * <p>What the transaction touched is kept by {@link Footprint}, and sending the frozen request to coordinators
 * by {@link FrozenCommit}. What stays here (over 350 lines, most of them documentation) is one state machine whose
 * reads, writes and commit must share the lock that freezes it.
 */
public final class Transaction implements AutoCloseable, KeyReader {
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
    /** Guarded by this transaction's lock, which the commit takes to freeze it. */
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

    Transaction(DuroClient client, TxId tid) {
        this.client = client;
        this.tid = tid;
    }

    public TxId id() {
        return tid;
    }

    // ---- reads ----

    /** Reads {@code key}: this transaction's own write if any, else the cluster at its snapshot. */
    @Override
    public CompletableFuture<Bytes> getAsync(Bytes key) {
        requireOpen(READS_FROZEN);
        client.limits().checkKey(key);
        Write written = written(key);
        if (written != null) {
            return CompletableFuture.completedFuture(written.value());
        }
        countKeys(List.of(key));
        int partition = client.cluster().partitionOf(key);
        return readAt(partition, key).thenApply(value -> {
            recordReads(List.of(key), partition);
            return value;
        });
    }

    /**
     * Reads {@code keys}: this transaction's own writes where it has any, else the cluster at its snapshots, one
     * request per partition (and per {@value MultiReads#KEYS_PER_REQUEST_MAX} keys). Where no read has fixed a
     * partition's snapshot yet, its first request fixes it and the others go out once it has, at that snapshot.
     */
    @Override
    public CompletableFuture<Map<Bytes, Bytes>> getAllAsync(Collection<Bytes> keys) {
        requireOpen(READS_FROZEN);
        List<Bytes> order = MultiReads.distinct(keys, client.limits());
        Map<Bytes, Bytes> own = new HashMap<>();
        List<Bytes> fromCluster = new ArrayList<>();
        for (Bytes key : order) {
            Write written = written(key);
            if (written != null) {
                own.put(key, written.value());
            } else {
                fromCluster.add(key);
            }
        }
        countKeys(fromCluster);
        List<MultiReads.Group> groups = new ArrayList<>();
        MultiReads.requests(fromCluster, client.cluster()::partitionOf).forEach((partition, keyGroups) -> {
            CompletableFuture<?> snapshotFixed =
                    snapshotAt(partition) == null ? null : CompletableFuture.completedFuture(null);
            for (List<Bytes> group : keyGroups) {
                CompletableFuture<List<VersionedValue>> values = (snapshotFixed == null
                                ? readAllAt(partition, group)
                                : snapshotFixed.thenCompose(fixed -> readAllAt(partition, group)))
                        .thenApply(read -> {
                            recordReads(group, partition);
                            return read;
                        });
                if (snapshotFixed == null) {
                    snapshotFixed = values;
                }
                groups.add(new MultiReads.Group(group, values));
            }
        });
        return MultiReads.collect(order, own, groups);
    }

    @Override
    public List<KeyValue> scan(KeyRange range, int limit, ScanOrder order) {
        requireOpen(READS_FROZEN);
        checkRange(range, client.limits());
        boolean descending = order == ScanOrder.DESCENDING;
        List<Write> own;
        synchronized (this) {
            own = footprint.writesIn(range);
        }
        RangeScan.Result result = RangeScan.run(
                client.cluster(),
                range,
                limit,
                descending,
                own,
                (partition, left, wanted) -> scanAt(partition, left, wanted, descending));
        recordScans(result.observed());
        return result.entries();
    }

    /** Checks a scan's range against the key limit before anything is sent. */
    static void checkRange(KeyRange range, Limits limits) {
        limits.checkKey(range.from());
        if (range.to() != null) {
            limits.checkKey(range.to());
        }
    }

    /** Adds what a scan observed to the footprint, if the transaction is still open (as {@link #recordReads}). */
    private synchronized void recordScans(Map<Integer, List<KeyRange>> observed) {
        requireOpen(READS_FROZEN);
        footprint.addScanned(observed, client.limits());
    }

    private CompletableFuture<ScanReply> scanAt(int partition, KeyRange range, int limit, boolean descending) {
        PartitionReader reader = new PartitionReader(client, partition, spread());
        long token = client.sessionToken(partition);
        return atFixedSnapshot(
                partition, snapshot -> reader.scan(range, limit, descending, snapshot, token), ScanReply::snapshot);
    }

    /**
     * Adds keys whose values reached the application to the read set. A read sent while open that comes back after
     * the commit started is not in the request: its value must not reach the application as if the transaction
     * had read it. Under the lock that the commit takes to freeze the transaction.
     */
    private synchronized void recordReads(List<Bytes> keys, int partition) {
        requireOpen(READS_FROZEN);
        footprint.addReads(keys, partition);
    }

    private synchronized @Nullable Write written(Bytes key) {
        return footprint.written(key);
    }

    private CompletableFuture<Bytes> readAt(int partition, Bytes key) {
        PartitionReader reader = new PartitionReader(client, partition, spread());
        long token = client.sessionToken(partition);
        return atFixedSnapshot(partition, snapshot -> reader.read(key, snapshot, token), ReadReply::snapshot)
                .thenApply(ReadReply::value);
    }

    private CompletableFuture<List<VersionedValue>> readAllAt(int partition, List<Bytes> keys) {
        PartitionReader reader = new PartitionReader(client, partition, spread());
        long token = client.sessionToken(partition);
        return atFixedSnapshot(partition, snapshot -> reader.readAll(keys, snapshot, token), MultiReadReply::snapshot)
                .thenApply(MultiReadReply::values);
    }

    /**
     * Reads with {@code read} at the partition's fixed snapshot, or at the latest one (a null argument) if none is
     * fixed yet, which the answer then fixes ({@link #fixSnapshot}). An answer served at another snapshot than the
     * one fixed meanwhile is read again at the fixed one.
     */
    private <R> CompletableFuture<R> atFixedSnapshot(
            int partition, Function<Long, CompletableFuture<R>> read, ToLongFunction<R> servedAt) {
        return read.apply(snapshotAt(partition)).thenCompose(reply -> {
            long served = servedAt.applyAsLong(reply);
            long fixed = fixSnapshot(partition, served);
            return fixed == served ? CompletableFuture.completedFuture(reply) : read.apply(fixed);
        });
    }

    /** The snapshot fixed at {@code partition}, or null if no read has fixed it yet. */
    private synchronized @Nullable Long snapshotAt(int partition) {
        return footprint.snapshotAt(partition);
    }

    /**
     * Fixes {@code partition}'s snapshot to {@code served} unless a read fixed it already, and returns the fixed one.
     * Two reads sent before either came back both ask for the latest snapshot and may be served at different ones:
     * the one that differs from the fixed snapshot must be read again there, or the transaction would certify at
     * a snapshot newer than a value it read.
     */
    private synchronized long fixSnapshot(int partition, long served) {
        return footprint.fixSnapshot(partition, served);
    }

    /** Spreads transactions of one client over the replicas of a partition. */
    private int spread() {
        return (int) (tid.sequence() & 0x7fffffff);
    }

    // ---- writes ----

    public void put(Bytes key, Bytes value) {
        requireOpen(WRITES_FROZEN);
        client.limits().checkKey(key);
        client.limits().checkValue(value);
        buffer(Write.put(key, value));
    }

    public void put(String key, String value) {
        put(Bytes.utf8(key), Bytes.utf8(value));
    }

    public void putLong(String key, long value) {
        put(key, Long.toString(value));
    }

    public void delete(Bytes key) {
        requireOpen(WRITES_FROZEN);
        client.limits().checkKey(key);
        buffer(Write.delete(key));
    }

    public void delete(String key) {
        delete(Bytes.utf8(key));
    }

    private void buffer(Write write) {
        int partition = client.cluster().partitionOf(write.key());
        Limits limits = client.limits();
        synchronized (this) {
            footprint.checkMoreKeys(List.of(write.key()), limits);
            footprint.buffer(write, partition);
        }
    }

    /** Checks the transaction's key limit before it reads {@code keys}; keys it has already count once. */
    private void countKeys(List<Bytes> keys) {
        Limits limits = client.limits();
        synchronized (this) {
            footprint.checkMoreKeys(keys, limits);
        }
    }

    // ---- termination ----

    /**
     * Commits: every partition touched certifies the transaction. The first call freezes the transaction (see the
     * class documentation); a later call resends the same request under the same id until the outcome is known,
     * returns the result again once committed, and throws the same {@link TransactionAbortedException} again once
     * aborted.
     *
     * @throws TransactionAbortedException if certification aborted it
     * @throws UnavailableException if no coordinator answered or the outcome is no longer retained; if
     *     {@link UnavailableException#outcomeUnknown()}, it may have committed. Committing again is safe and
     *     resends the same request; when the servers no longer retain the outcome it is final, and committing
     *     again throws the same answer without asking them
     */
    public CommitResult commit() {
        return join(commitAsync());
    }

    public CompletableFuture<CommitResult> commitAsync() {
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
                frozenCommit().thenCompose(commit -> commit.send(client)).thenApply(this::settle);
        commitInFlight = sent;
        return sent;
    }

    /**
     * The request, computed on the first call that finds every snapshot fixed. A blind write to a partition not
     * read yet first fixes the snapshot there (ws ⊆ rs); when that fails, the next call fixes only the ones still
     * missing.
     */
    private CompletableFuture<FrozenCommit> frozenCommit() {
        FrozenCommit done = frozen;
        if (done != null) {
            return CompletableFuture.completedFuture(done);
        }
        return fixMissingSnapshots().thenApply(ignored -> {
            if (frozen == null) {
                frozen = new FrozenCommit(tid, participants());
            }
            return frozen;
        });
    }

    private CompletableFuture<Void> fixMissingSnapshots() {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        Map<Integer, Bytes> unread;
        synchronized (this) {
            unread = footprint.writtenUnread();
        }
        for (Map.Entry<Integer, Bytes> entry : unread.entrySet()) {
            chain = chain.thenCompose(
                    ignored -> readAt(entry.getKey(), entry.getValue()).thenApply(value -> null));
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
            throw endFor(State.ABORTED, new TransactionAbortedException(outcome.reason()));
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

    /**
     * Whether a commit request may have left this client: the transaction may have committed unless an outcome
     * says otherwise. {@link DuroClient#transact} runs a body again only when this is false or it aborted.
     */
    boolean commitSent() {
        return frozen != null;
    }

    /** The servers no longer retain this transaction's outcome: no resend can learn it. */
    boolean outcomeLost() {
        return state == State.OUTCOME_LOST;
    }

    /** The result of a successful commit. */
    public CommitResult result() {
        if (result == null) {
            throw new IllegalStateException("transaction " + tid + " has not committed");
        }
        return result;
    }

    /**
     * Abandons an open transaction: nothing was sent, nothing is kept. Does nothing once it has ended.
     *
     * @throws IllegalStateException while its commit is under way or of unknown outcome: it may commit, or have
     *     committed, whatever this client does now
     */
    public void rollback() {
        switch (state) {
            case OPEN -> state = State.ROLLED_BACK;
            case COMMITTING, OUTCOME_LOST -> throw new IllegalStateException("transaction " + tid + " is "
                    + state.description + "; a commit already started cannot be rolled back");
            case COMMITTED, ABORTED, ROLLED_BACK -> {}
        }
    }

    /** Rolls back an open transaction; unlike {@link #rollback()}, never throws, so it suits try-with-resources. */
    @Override
    public void close() {
        if (state == State.OPEN) {
            state = State.ROLLED_BACK;
        }
    }

    private static final String READS_FROZEN = "it reads no more (a read now would not be certified with it)";
    private static final String WRITES_FROZEN = "its writes are frozen";

    private void requireOpen(String consequence) {
        State current = state;
        if (current != State.OPEN) {
            throw new IllegalStateException("transaction " + tid + " is " + current.description + "; " + consequence);
        }
    }

    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof DuroException duro) {
                throw duro;
            }
            if (e.getCause() instanceof IllegalStateException misuse) {
                throw misuse;
            }
            throw new UnavailableException(String.valueOf(e.getCause()), true);
        }
    }
}
