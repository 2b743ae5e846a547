package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.Outcome;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.annotation.Nullable;

/**
 * An update transaction (S-DUR Algorithm 3). Reads go to any replica of the key's partition; the first read at
 * a partition fixes the transaction's snapshot there. Writes are buffered and sent at commit, where every
 * partition touched certifies the transaction. Not thread-safe; close it (or commit it) when done.
 */
public final class Transaction implements AutoCloseable, KeyReader {
    private enum State {
        OPEN,
        COMMITTED,
        ABORTED,
        ROLLED_BACK
    }

    private final DuroClient client;
    private final TxId tid;
    private final TreeMap<Integer, Long> snapshots = new TreeMap<>();
    /** Keys read from the cluster, with their partition. */
    private final Map<Bytes, Integer> reads = new LinkedHashMap<>();

    private final Map<Bytes, Write> writes = new LinkedHashMap<>();
    private final Map<Bytes, Integer> writePartitions = new HashMap<>();
    private State state = State.OPEN;
    private @Nullable CommitResult result;

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
        requireOpen();
        client.limits().checkKey(key);
        Write written = writes.get(key);
        if (written != null) {
            return CompletableFuture.completedFuture(written.value());
        }
        countKey(key);
        int partition = client.cluster().partitionOf(key);
        return readAt(partition, key).thenApply(value -> {
            reads.putIfAbsent(key, partition);
            return value;
        });
    }

    private CompletableFuture<Bytes> readAt(int partition, Bytes key) {
        Long snapshot = snapshots.get(partition);
        PartitionReader reader = new PartitionReader(client, partition, spread());
        return reader.read(key, snapshot, client.sessionToken(partition)).thenApply(read -> {
            snapshots.putIfAbsent(partition, read.snapshot());
            return read.value();
        });
    }

    /** Spreads transactions of one client over the replicas of a partition. */
    private int spread() {
        return (int) (tid.sequence() & 0x7fffffff);
    }

    // ---- writes ----

    public void put(Bytes key, Bytes value) {
        requireOpen();
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
        requireOpen();
        client.limits().checkKey(key);
        buffer(Write.delete(key));
    }

    public void delete(String key) {
        delete(Bytes.utf8(key));
    }

    private void buffer(Write write) {
        if (!writes.containsKey(write.key())) {
            countKey(write.key());
        }
        writes.put(write.key(), write);
        writePartitions.put(write.key(), client.cluster().partitionOf(write.key()));
    }

    private void countKey(Bytes key) {
        if (!reads.containsKey(key) && !writes.containsKey(key)) {
            client.limits().checkTransactionKeys(reads.size() + writes.size() + 1);
        }
    }

    // ---- termination ----

    /**
     * Commits: every partition touched certifies the transaction.
     *
     * @throws TransactionAbortedException if certification aborted it
     * @throws UnavailableException if no coordinator answered; if {@link UnavailableException#outcomeUnknown()},
     *     committing again is safe
     */
    public CommitResult commit() {
        return join(commitAsync());
    }

    public CompletableFuture<CommitResult> commitAsync() {
        if (state == State.COMMITTED && result != null) {
            return CompletableFuture.completedFuture(result);
        }
        requireOpen();
        if (writes.isEmpty() && snapshots.size() <= 1) {
            // Read-only at one partition: its snapshot is consistent, nothing to certify (S-DUR §III-B).
            return CompletableFuture.completedFuture(finish(new CommitResult(tid, Map.of())));
        }
        return fixMissingSnapshots().thenCompose(ignored -> sendCommit(participants()));
    }

    /** A blind write to a partition not read yet first fixes the snapshot there (ws ⊆ rs). */
    private CompletableFuture<Void> fixMissingSnapshots() {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        Map<Integer, Bytes> unread = new TreeMap<>();
        writePartitions.forEach((key, partition) -> {
            if (!snapshots.containsKey(partition)) {
                unread.putIfAbsent(partition, key);
            }
        });
        for (Map.Entry<Integer, Bytes> entry : unread.entrySet()) {
            chain = chain.thenCompose(
                    ignored -> readAt(entry.getKey(), entry.getValue()).thenApply(value -> null));
        }
        return chain;
    }

    private List<CommitTransaction.Participant> participants() {
        Set<Integer> partitions = new TreeSet<>(snapshots.keySet());
        partitions.addAll(writePartitions.values());
        List<CommitTransaction.Participant> participants = new ArrayList<>();
        for (int partition : partitions) {
            List<Bytes> readSet = new ArrayList<>();
            reads.forEach((key, p) -> {
                if (p == partition && !writes.containsKey(key)) {
                    readSet.add(key);
                }
            });
            List<Write> writeSet = new ArrayList<>();
            writes.forEach((key, write) -> {
                if (writePartitions.get(key) == partition) {
                    writeSet.add(write);
                }
            });
            participants.add(new CommitTransaction.Participant(partition, snapshots.get(partition), readSet, writeSet));
        }
        return participants;
    }

    private CompletableFuture<CommitResult> sendCommit(List<CommitTransaction.Participant> participants) {
        List<HostPort> coordinators = coordinators(participants);
        return attemptCommit(participants, coordinators, 0, null);
    }

    /** The first participant's leader first (it applies the log first), then every replica of a participant. */
    private List<HostPort> coordinators(List<CommitTransaction.Participant> participants) {
        ClusterView view = client.cluster();
        Set<HostPort> ordered = new LinkedHashSet<>();
        HostPort leader = view.leader(participants.get(0).partition());
        if (leader != null) {
            ordered.add(leader);
        }
        for (CommitTransaction.Participant participant : participants) {
            ordered.addAll(view.replicas(participant.partition()));
        }
        return new ArrayList<>(ordered);
    }

    private CompletableFuture<CommitResult> attemptCommit(
            List<CommitTransaction.Participant> participants,
            List<HostPort> coordinators,
            int attempt,
            @Nullable DuroException previous) {
        if (attempt >= coordinators.size()) {
            return CompletableFuture.failedFuture(new UnavailableException(
                    "no coordinator could commit " + tid + "; the outcome is unknown and committing again is safe"
                            + (previous == null ? "" : " (last error: " + previous.getMessage() + ")"),
                    true));
        }
        HostPort coordinator = coordinators.get(attempt);
        return client.call(coordinator, id -> new CommitTransaction(id, tid, participants))
                .handle((reply, failure) -> outcomeOf(reply, failure))
                .thenCompose(step -> step.result != null
                        ? CompletableFuture.completedFuture(step.result)
                        : step.fatal != null
                                ? CompletableFuture.failedFuture(step.fatal)
                                : attemptCommit(participants, coordinators, attempt + 1, step.retryable));
    }

    /** What one commit attempt produced: a result, a failure to report, or a reason to try the next node. */
    private static final class Step {
        @Nullable
        CommitResult result;

        @Nullable
        DuroException fatal;

        @Nullable
        DuroException retryable;
    }

    private Step outcomeOf(@Nullable ServerReply reply, @Nullable Throwable failure) {
        Step step = new Step();
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause != null) {
            if (cause instanceof UnavailableException unavailable) {
                step.retryable = unavailable;
            } else {
                step.fatal =
                        cause instanceof DuroException duro ? duro : new UnavailableException(cause.toString(), true);
            }
            return step;
        }
        if (reply instanceof OutcomeReply outcomeReply) {
            Outcome outcome = outcomeReply.outcome();
            if (outcome.committed()) {
                Map<Integer, Long> versions = new TreeMap<>();
                for (int partition : outcome.participants()) {
                    versions.put(partition, outcome.versionAt(partition));
                }
                step.result = finish(new CommitResult(tid, versions));
            } else {
                state = State.ABORTED;
                step.fatal = new TransactionAbortedException(outcome.reason());
            }
            return step;
        }
        if (reply instanceof ErrorReply error
                && (error.code() == ErrorCode.NOT_READY
                        || error.code() == ErrorCode.OVERLOADED
                        || error.code() == ErrorCode.UNKNOWN_PARTITION)) {
            step.retryable = DuroClient.errorOf(error);
        } else {
            step.fatal = DuroClient.errorOf(reply);
        }
        return step;
    }

    private CommitResult finish(CommitResult committed) {
        state = State.COMMITTED;
        result = committed;
        client.recordCommit(committed);
        return committed;
    }

    /** The result of a successful commit. */
    public CommitResult result() {
        if (result == null) {
            throw new IllegalStateException("transaction " + tid + " has not committed");
        }
        return result;
    }

    /** Abandons the transaction: nothing was sent, nothing is kept. */
    public void rollback() {
        if (state == State.OPEN) {
            state = State.ROLLED_BACK;
        }
    }

    @Override
    public void close() {
        rollback();
    }

    private void requireOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException(
                    "transaction " + tid + " is " + state.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof DuroException duro) {
                throw duro;
            }
            throw new UnavailableException(String.valueOf(e.getCause()), true);
        }
    }
}
