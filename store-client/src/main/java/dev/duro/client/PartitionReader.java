package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.annotation.Nullable;

/**
 * Reads one key from any replica of its partition, failing over to the next replica when one is unreachable,
 * lags beyond its wait bound, or does not hold the partition. Replicas that recently failed are tried last
 * ({@link NodeHealth}).
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
        List<HostPort> replicas = client.health().order(client.cluster().replicas(partition), firstChoice);
        return attempt(key, snapshot, minVersion, replicas, 0, null);
    }

    private CompletableFuture<ReadReply> attempt(
            Bytes key,
            @Nullable Long snapshot,
            long minVersion,
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
        long at = snapshot == null ? ReadRequest.LATEST : snapshot;
        return client.call(replica, id -> new ReadRequest(id, key, at, minVersion))
                .handle((reply, failure) -> classify(reply, failure))
                .thenCompose(result -> {
                    if (result instanceof ReadReply read) {
                        client.health().served(replica);
                        return CompletableFuture.completedFuture(read);
                    }
                    RetryOrFail outcome = (RetryOrFail) result;
                    if (!outcome.retry) {
                        return CompletableFuture.failedFuture(outcome.error);
                    }
                    client.health().failed(replica);
                    return attempt(key, snapshot, minVersion, replicas, tried + 1, outcome.error);
                });
    }

    private record RetryOrFail(DuroException error, boolean retry) {}

    private Object classify(@Nullable ServerReply reply, @Nullable Throwable failure) {
        if (failure != null) {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof UnavailableException unavailable) {
                return new RetryOrFail(unavailable, true);
            }
            return new RetryOrFail(
                    cause instanceof DuroException duro ? duro : new UnavailableException(cause.toString(), false),
                    false);
        }
        if (reply instanceof ReadReply read) {
            return read;
        }
        if (reply instanceof ErrorReply error && anotherReplicaMayAnswer(error.code())) {
            return new RetryOrFail(DuroClient.errorOf(error), true);
        }
        return new RetryOrFail(DuroClient.errorOf(reply), false);
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
        };
    }
}
