package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.GroupStatus;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Bytes;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.StoreEntry;
import dev.duro.core.VersionedValue;
import dev.duro.core.store.ScanResult;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.MultiReadReply;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ScanReply;
import dev.duro.core.wire.ScanRequest;
import dev.duro.core.wire.ServerReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Serves reads from this node's replicas, followers included (docs/architecture.md §2, step 1). A read at a snapshot above
 * the replica's {@code SC}, or before the client's session token, waits until the replica catches up — boundedly
 * — and never answers from an older snapshot (RAM-DUR Rule 1).
 */
final class ReadService {
    private final ConsensusNode consensus;
    private final Routing routing;
    private final Duration waitMax;
    /** Room for values in one reply frame: {@code server.frame-bytes-max} less its headers. */
    private final long replyValueBytesMax;
    /** {@code limits.scan-keys-max}: a scan asking for more keys gets this many, and the reply says more remain. */
    private final int scanKeysMax;

    ReadService(ConsensusNode consensus, Routing routing, Duration waitMax, int frameBytesMax, int scanKeysMax) {
        this.consensus = consensus;
        this.routing = routing;
        this.waitMax = waitMax;
        this.replyValueBytesMax = frameBytesMax - (1L << 16);
        this.scanKeysMax = scanKeysMax;
    }

    /**
     * Reads one key at the request's snapshot; a read that must wait for it goes on on {@code continueOn} (the
     * connection's event loop), never on the apply thread whose entry woke it.
     */
    CompletableFuture<ServerReply> read(ReadRequest request, Executor continueOn) {
        int partition = routing.partitionOf(request.key());
        long needed = request.readsLatest() ? request.minVersion() : Math.max(request.snapshot(), request.minVersion());
        return whenReady(
                request.requestId(), partition, needed, continueOn, replica -> readNow(request, partition, replica));
    }

    /**
     * Reads every key of one partition at one snapshot: waits like {@link #read}, then reads them all under one
     * acquisition of the replica's lock. Keys of another partition are refused ({@code UNKNOWN_PARTITION}, the
     * client's view is stale), and so are values too large together for one reply frame ({@code LIMIT_EXCEEDED}).
     */
    CompletableFuture<ServerReply> readAll(MultiReadRequest request, Executor continueOn) {
        int partition = request.partition();
        for (Bytes key : request.keys()) {
            int owner = routing.partitionOf(key);
            if (owner != partition) {
                return CompletableFuture.completedFuture(new ErrorReply(
                        request.requestId(),
                        ErrorCode.UNKNOWN_PARTITION,
                        "key " + key + " belongs to partition " + owner + ", not " + partition));
            }
        }
        long needed = request.readsLatest() ? request.minVersion() : Math.max(request.snapshot(), request.minVersion());
        return whenReady(request.requestId(), partition, needed, continueOn, replica -> readAllNow(request, replica));
    }

    /**
     * Scans a range of one partition at one snapshot: waits like {@link #read}, then scans under one acquisition of
     * the replica's lock, at most {@code limits.scan-keys-max} keys whatever the request's limit, and no more than
     * one reply frame holds. Either bound cuts the reply short with {@code more} set, and the client continues
     * after its last key (docs/ranges.md, "Scans over the wire").
     */
    CompletableFuture<ServerReply> scan(ScanRequest request, Executor continueOn) {
        long needed = request.readsLatest() ? request.minVersion() : Math.max(request.snapshot(), request.minVersion());
        return whenReady(
                request.requestId(), request.partition(), needed, continueOn, replica -> scanNow(request, replica));
    }

    private ServerReply scanNow(ScanRequest request, PartitionStateMachine replica) {
        long snapshot = request.readsLatest() ? replica.snapshotCounter() : request.snapshot();
        ScanResult result;
        try {
            result = replica.scan(
                    request.range(), Math.min(request.limit(), scanKeysMax), request.descending(), snapshot);
        } catch (SnapshotTooOldException e) {
            return new ErrorReply(request.requestId(), ErrorCode.SNAPSHOT_TOO_OLD, e.getMessage());
        }
        List<StoreEntry> entries = result.entries();
        long bytes = 0;
        for (int i = 0; i < entries.size(); i++) {
            bytes += entries.get(i).key().size() + entries.get(i).value().size();
            if (bytes > replyValueBytesMax && i > 0) {
                return new ScanReply(request.requestId(), request.partition(), snapshot, entries.subList(0, i), true);
            }
        }
        return new ScanReply(request.requestId(), request.partition(), snapshot, entries, result.limited());
    }

    /**
     * Runs {@code read} once this node's replica of {@code partition} reached {@code needed}, boundedly: at once on
     * the calling thread if it has, else on {@code continueOn}. The waiter is woken on the apply thread that
     * delivered the entry; serving it there (the read, its reply, its metrics) held up the next entry
     * (docs/performance.md, "Woken reads on their event loop").
     */
    private CompletableFuture<ServerReply> whenReady(
            long requestId,
            int partition,
            long needed,
            Executor continueOn,
            Function<PartitionStateMachine, ServerReply> read) {
        PartitionStateMachine replica = consensus.replica(partition);
        if (replica == null) {
            return CompletableFuture.completedFuture(new ErrorReply(
                    requestId,
                    ErrorCode.UNKNOWN_PARTITION,
                    "node " + consensus.nodeId() + " holds no replica of partition " + partition));
        }
        return continueWhenReached(replica.awaitSnapshot(needed), waitMax, continueOn, failure -> {
            if (failure == null) {
                return read.apply(replica);
            }
            replica.purgeAbandonedWaiters();
            if (failure instanceof TimeoutException) {
                return new ErrorReply(
                        requestId,
                        ErrorCode.SNAPSHOT_NOT_READY,
                        "partition " + partition + " replica on " + consensus.nodeId() + " did not reach snapshot "
                                + needed + " within " + waitMax.toMillis() + " ms (server.read-wait-millis-max)");
            }
            return new ErrorReply(requestId, ErrorCode.INTERNAL, String.valueOf(failure));
        });
    }

    /**
     * {@code then}'s answer to how {@code reached} ended (null if it completed, else its failure, a
     * {@link TimeoutException} after {@code waitMax}): computed at once on the calling thread if {@code reached} is
     * already complete, else on {@code continueOn}, or where it was completed if {@code continueOn} refuses the task.
     */
    static <T> CompletableFuture<T> continueWhenReached(
            CompletableFuture<Long> reached, Duration waitMax, Executor continueOn, Function<Throwable, T> then) {
        if (reached.isDone() && !reached.isCompletedExceptionally()) {
            return CompletableFuture.completedFuture(then.apply(null));
        }
        return reached.orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                .handleAsync((counter, failure) -> then.apply(failure), task -> runOn(continueOn, task));
    }

    /** An event loop that is shutting down refuses tasks: the read is then served where it was woken. */
    private static void runOn(Executor executor, Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException closing) {
            task.run();
        }
    }

    private ServerReply readAllNow(MultiReadRequest request, PartitionStateMachine replica) {
        long snapshot = request.readsLatest() ? replica.snapshotCounter() : request.snapshot();
        List<VersionedValue> values;
        try {
            values = replica.readAll(request.keys(), snapshot);
        } catch (SnapshotTooOldException e) {
            return new ErrorReply(request.requestId(), ErrorCode.SNAPSHOT_TOO_OLD, e.getMessage());
        }
        long bytes = 0;
        for (VersionedValue value : values) {
            bytes += value.value() == null ? 0 : value.value().size();
        }
        if (bytes > replyValueBytesMax) {
            return new ErrorReply(
                    request.requestId(),
                    ErrorCode.LIMIT_EXCEEDED,
                    "the values of these " + values.size() + " keys take " + bytes + " bytes, more than one reply"
                            + " frame holds (server.frame-bytes-max); read them in smaller groups");
        }
        return new MultiReadReply(request.requestId(), request.partition(), snapshot, values);
    }

    /** The state of this node's replica of a partition, for comparing replicas (administration, tests). */
    ServerReply status(ReplicaStatusRequest request) {
        PartitionStateMachine replica = consensus.replica(request.partition());
        if (replica == null) {
            return new ErrorReply(
                    request.requestId(),
                    ErrorCode.UNKNOWN_PARTITION,
                    "node " + consensus.nodeId() + " holds no replica of partition " + request.partition());
        }
        GroupStatus group = consensus.groupStatus(request.partition());
        PartitionStateMachine.Status status = replica.status();
        String leader = group == null || group.leader() == null ? "" : group.leader();
        return new ReplicaStatusReply(
                request.requestId(),
                request.partition(),
                status.snapshotCounter(),
                status.contentDigest(),
                status.pendingCount(),
                consensus.nodeId(),
                leader,
                group == null ? 0 : group.term(),
                group == null ? -1 : group.commitIndex(),
                group == null ? -1 : group.appliedIndex());
    }

    private ServerReply readNow(ReadRequest request, int partition, PartitionStateMachine replica) {
        long snapshot = request.readsLatest() ? replica.snapshotCounter() : request.snapshot();
        try {
            return ReadReply.of(request.requestId(), partition, snapshot, replica.read(request.key(), snapshot));
        } catch (SnapshotTooOldException e) {
            return new ErrorReply(request.requestId(), ErrorCode.SNAPSHOT_TOO_OLD, e.getMessage());
        }
    }
}
