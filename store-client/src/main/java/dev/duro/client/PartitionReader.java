package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.MultiReadReply;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ScanReply;
import dev.duro.core.wire.ScanRequest;
import dev.duro.core.wire.ServerReply;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import javax.annotation.Nullable;

/**
 * Reads one key, or several of one partition, from any replica of the partition, failing over to the next replica
 * when one is unreachable, lags beyond its wait bound, or does not hold the partition. Replicas that recently
 * failed are tried last ({@link NodeHealth}).
 */
final class PartitionReader {
    private final DuroClient client;
    private final int partition;
    private final int firstChoice;

    PartitionReader(DuroClient client, int partition, int spread) {
        this.client = client;
        this.partition = partition;
        this.firstChoice = spread;
    }

    /**
     * @param snapshot the snapshot to read at, or null for the replica's current one
     * @param minVersion the session token: the replica must have reached this version
     */
    CompletableFuture<ReadReply> read(Bytes key, @Nullable Long snapshot, long minVersion) {
        long at = snapshot == null ? ReadRequest.LATEST : snapshot;
        return firstAnswer(id -> new ReadRequest(id, key, at, minVersion), ReadReply.class);
    }

    /**
     * Reads {@code keys}, all of this partition, at one snapshot in one round trip.
     *
     * @param snapshot the snapshot to read at, or null for the replica's current one
     * @param minVersion the session token: the replica must have reached this version
     */
    CompletableFuture<MultiReadReply> readAll(List<Bytes> keys, @Nullable Long snapshot, long minVersion) {
        long at = snapshot == null ? ReadRequest.LATEST : snapshot;
        return firstAnswer(id -> new MultiReadRequest(id, partition, at, minVersion, keys), MultiReadReply.class);
    }

    /**
     * Scans {@code range} of this partition at one snapshot: at most {@code limit} present keys, fewer if the
     * server's {@code limits.scan-keys-max} or its reply frame stops it first (the reply then says more remain).
     *
     * @param snapshot the snapshot to scan at, or null for the replica's current one
     * @param minVersion the session token: the replica must have reached this version
     */
    CompletableFuture<ScanReply> scan(
            KeyRange range, int limit, boolean descending, @Nullable Long snapshot, long minVersion) {
        long at = snapshot == null ? ReadRequest.LATEST : snapshot;
        return firstAnswer(
                id -> new ScanRequest(id, partition, at, minVersion, range, limit, descending), ScanReply.class);
    }

    private <R extends ServerReply> CompletableFuture<R> firstAnswer(
            LongFunction<ClientRequest> request, Class<R> type) {
        List<HostPort> replicas = client.health().order(client.cluster().replicas(partition), firstChoice);
        return attempt(request, type, replicas, 0, null);
    }

    private <R extends ServerReply> CompletableFuture<R> attempt(
            LongFunction<ClientRequest> request,
            Class<R> type,
            List<HostPort> replicas,
            int tried,
            @Nullable DuroException previous) {
        if (tried >= replicas.size()) {
            return CompletableFuture.failedFuture(
                    previous != null
                            ? previous
                            : new UnavailableException("no replica of partition " + partition + " answered", false));
        }
        HostPort replica = replicas.get(tried);
        return client.call(replica, request)
                .handle((reply, failure) -> classify(reply, failure, type))
                .thenCompose(result -> {
                    if (type.isInstance(result)) {
                        client.health().served(replica);
                        return CompletableFuture.completedFuture(type.cast(result));
                    }
                    RetryOrFail outcome = (RetryOrFail) result;
                    if (!outcome.retry) {
                        return CompletableFuture.failedFuture(outcome.error);
                    }
                    client.health().failed(replica);
                    return attempt(request, type, replicas, tried + 1, outcome.error);
                });
    }

    private record RetryOrFail(DuroException error, boolean retry) {}

    private Object classify(@Nullable ServerReply reply, @Nullable Throwable failure, Class<?> type) {
        if (failure != null) {
            Throwable cause = Transport.causeOf(failure);
            if (cause instanceof UnavailableException unavailable) {
                return new RetryOrFail(unavailable, true);
            }
            return new RetryOrFail(
                    cause instanceof DuroException duro ? duro : new UnavailableException(cause.toString(), false),
                    false);
        }
        if (type.isInstance(reply)) {
            return reply;
        }
        if (reply instanceof ErrorReply error && anotherReplicaMayAnswer(error.code())) {
            return new RetryOrFail(Transport.errorOf(error), true);
        }
        return new RetryOrFail(Transport.errorOf(Objects.requireNonNull(reply, "a reply or a failure")), false);
    }

    /**
     * Whether another replica may serve a read that this one refused with {@code code}. A switch without a
     * default: a new error code does not compile until it is sorted here.
     */
    static boolean anotherReplicaMayAnswer(ErrorCode code) {
        return switch (code) {
                // This replica: it lags behind the snapshot or session token, has no leader yet, or does not hold
                // the partition (the view is stale).
            case SNAPSHOT_NOT_READY, NOT_READY, UNKNOWN_PARTITION -> true;
                // The request, or versions every replica has collected alike: the transaction must start over.
            case LIMIT_EXCEEDED, MALFORMED_FRAME, UNSUPPORTED_VERSION, SNAPSHOT_TOO_OLD -> false;
                // A server shedding load or failing inside: not hidden by moving the load to its peers.
            case OVERLOADED, INTERNAL -> false;
                // Only ever an answer to a commit.
            case OUTCOME_UNKNOWN -> false;
                // Every node enforces the same auth rules (docs/auth.md), and answers a connection's identity alike:
                // refused here, refused everywhere.
            case PERMISSION_DENIED, UNAUTHENTICATED, FORBIDDEN -> false;
        };
    }
}
