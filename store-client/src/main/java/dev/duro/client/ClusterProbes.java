package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Requests that ask one node about the cluster rather than about keys: a replica's status, the consistent cut a node
 * serves, and the readiness probe built from them ({@link DuroClient#replicaStatus},
 * {@link DuroClient#snapshotVector}, {@link DuroClient#awaitReady}). They only read: nothing here writes into the
 * keyspace.
 */
final class ClusterProbes {
    private final ClusterViews views;
    private final Transport transport;

    ClusterProbes(ClusterViews views, Transport transport) {
        this.views = views;
        this.transport = transport;
    }

    /** {@link DuroClient#awaitReady}. */
    ClusterView awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        DuroException last = null;
        while (System.nanoTime() < deadline) {
            try {
                ClusterView view = views.refresh();
                boolean leaders = true;
                for (int p = 0; p < view.partitionCount(); p++) {
                    leaders &= view.leader(p) != null;
                }
                if (leaders) {
                    HostPort first = Objects.requireNonNull(view.leader(0), "partition 0's leader");
                    snapshotVector(first, ReadConsistency.LINEARIZABLE, new long[0]);
                    return views.refresh();
                }
            } catch (DuroException e) {
                last = e;
            }
            RetryPolicy.pause(Duration.ofMillis(200));
        }
        throw new UnavailableException(
                "cluster not ready within " + timeout.toSeconds() + " s"
                        + (last == null ? "" : ": " + last.getMessage()),
                false);
    }

    /** {@link DuroClient#replicaStatus}. */
    ReplicaStatusReply replicaStatus(HostPort node, int partition) {
        ServerReply reply = transport.await(transport.call(node, id -> new ReplicaStatusRequest(id, partition)));
        if (reply instanceof ReplicaStatusReply status) {
            return status;
        }
        throw Transport.errorOf(reply);
    }

    /** {@link DuroClient#snapshotVectorAsync}: the cut {@code node} builds, covering {@code minimum}. */
    CompletableFuture<long[]> snapshotVectorAsync(HostPort node, ReadConsistency consistency, long[] minimum) {
        boolean linearizable = consistency == ReadConsistency.LINEARIZABLE;
        List<Long> floor = Arrays.stream(minimum).boxed().toList();
        return transport
                .call(node, id -> new SnapshotVectorRequest(id, linearizable, floor))
                .handle((reply, failure) -> {
                    if (failure != null) {
                        Throwable cause = Transport.causeOf(failure);
                        throw cause instanceof DuroException duro
                                ? duro
                                : new UnavailableException("request failed: " + cause, true);
                    }
                    if (reply instanceof SnapshotVectorReply vector) {
                        return vector.cutArray();
                    }
                    throw Transport.errorOf(reply);
                });
    }

    /** A node's consistent cut covering {@code minimum} (waiting for it): for probes that need one answer. */
    long[] snapshotVector(HostPort node, ReadConsistency consistency, long[] minimum) {
        return Transaction.join(snapshotVectorAsync(node, consistency, minimum));
    }
}
