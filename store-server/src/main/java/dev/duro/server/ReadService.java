package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.store.SnapshotTooOldException;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ServerReply;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Serves reads from this node's replicas, followers included (DESIGN §2 step 2). A read at a snapshot above
 * the replica's {@code SC}, or before the client's session token, waits until the replica catches up — boundedly
 * — and never answers from an older snapshot (RAM-DUR Rule 1).
 */
final class ReadService {
    private final ConsensusNode consensus;
    private final Routing routing;
    private final Duration waitMax;

    ReadService(ConsensusNode consensus, Routing routing, Duration waitMax) {
        this.consensus = consensus;
        this.routing = routing;
        this.waitMax = waitMax;
    }

    CompletableFuture<ServerReply> read(ReadRequest request) {
        int partition = routing.partitionOf(request.key());
        PartitionStateMachine replica = consensus.replica(partition);
        if (replica == null) {
            return CompletableFuture.completedFuture(new ErrorReply(
                    request.requestId(),
                    ErrorCode.UNKNOWN_PARTITION,
                    "node " + consensus.nodeId() + " holds no replica of partition " + partition));
        }
        long needed = request.readsLatest() ? request.minVersion() : Math.max(request.snapshot(), request.minVersion());
        return replica.awaitSnapshot(needed)
                .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                .handle((counter, failure) -> {
                    if (failure != null) {
                        replica.purgeAbandonedWaiters();
                        if (failure instanceof TimeoutException) {
                            return new ErrorReply(
                                    request.requestId(),
                                    ErrorCode.SNAPSHOT_NOT_READY,
                                    "partition " + partition + " replica on " + consensus.nodeId()
                                            + " did not reach snapshot " + needed + " within " + waitMax.toMillis()
                                            + " ms (server.read-wait-millis-max)");
                        }
                        return new ErrorReply(request.requestId(), ErrorCode.INTERNAL, String.valueOf(failure));
                    }
                    return readNow(request, partition, replica);
                });
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
        PartitionStateMachine.Status status = replica.status();
        return new ReplicaStatusReply(
                request.requestId(),
                request.partition(),
                status.snapshotCounter(),
                status.contentDigest(),
                status.pendingCount());
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
