package dev.duro.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.MultiReadReply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;

/**
 * A read-only transaction (S-DUR §IV-E): it reads every partition at one consistent cut of the
 * vector-of-snapshots service, so it sees each global transaction entirely or not at all. It is never
 * certified, never aborts and puts nothing in any log. It always sees this client's own committed writes.
 */
public final class ReadOnlyTransaction implements KeyReader {
    private static final Duration SESSION_WAIT_MAX = Duration.ofSeconds(5);

    private final DuroClient client;
    private final ReadConsistency consistency;
    /** The cut's fetch, started by the first read; a failed one is started again by the next read. */
    @GuardedBy("this")
    private @Nullable CompletableFuture<long[]> cut;

    ReadOnlyTransaction(DuroClient client, ReadConsistency consistency) {
        this.client = client;
        this.consistency = consistency;
    }

    /** Reads {@code key} at this transaction's cut. */
    @Override
    public CompletableFuture<Bytes> getAsync(Bytes key) {
        client.limits().checkKey(key);
        int partition = client.cluster().partitionOf(key);
        return cutAsync()
                .thenCompose(at ->
                        new PartitionReader(client, partition, (int) System.nanoTime()).read(key, at[partition], 0))
                .thenApply(read -> read.value());
    }

    /** Reads {@code keys} at this transaction's cut: one request per partition (and per 32 keys), sent at once. */
    @Override
    public CompletableFuture<Map<Bytes, Bytes>> getAllAsync(Collection<Bytes> keys) {
        List<Bytes> order = MultiReads.distinct(keys, client.limits());
        return cutAsync().thenCompose(at -> {
            List<MultiReads.Group> groups = new ArrayList<>();
            MultiReads.requests(order, client.cluster()::partitionOf).forEach((partition, keyGroups) -> {
                for (List<Bytes> group : keyGroups) {
                    PartitionReader reader = new PartitionReader(client, partition, (int) System.nanoTime());
                    groups.add(new MultiReads.Group(
                            group, reader.readAll(group, at[partition], 0).thenApply(MultiReadReply::values)));
                }
            });
            return MultiReads.collect(order, Map.of(), groups);
        });
    }

    /** Scans at this transaction's cut: every partition the scan reads is read at its snapshot in the cut. */
    @Override
    public List<KeyValue> scan(KeyRange range, int limit, ScanOrder order) {
        Transaction.checkRange(range, client.limits());
        boolean descending = order == ScanOrder.DESCENDING;
        long[] at = Transaction.join(cutAsync());
        return RangeScan.run(
                        client.cluster(),
                        range,
                        limit,
                        descending,
                        List.of(),
                        (partition, left, wanted) -> new PartitionReader(client, partition, (int) System.nanoTime())
                                .scan(left, wanted, descending, at[partition], 0))
                .entries();
    }

    /**
     * The cut this transaction reads at: fetched on first use, and no older than this client's writes or the cuts
     * its earlier read-only transactions read (monotonic reads; cuts form one chain, docs/window-safety.md).
     */
    public long[] cut() {
        return Transaction.join(cutAsync()).clone();
    }

    /**
     * {@link #cut} without blocking: the asynchronous reads wait for it this way, on no thread. The array is this
     * transaction's own: read it, never change it.
     */
    private synchronized CompletableFuture<long[]> cutAsync() {
        if (cut == null || cut.isCompletedExceptionally()) {
            cut = fetchCut().thenApply(fetched -> {
                client.recordCut(fetched);
                return fetched;
            });
        }
        return cut;
    }

    private CompletableFuture<long[]> fetchCut() {
        NodeHealth health = client.health();
        // Any node can build the cut: start at a random one, so read-only load spreads over the cluster.
        List<HostPort> nodes = health.order(
                client.cluster().allNodes(), ThreadLocalRandom.current().nextInt(1 << 16));
        long deadline = System.nanoTime() + SESSION_WAIT_MAX.toNanos();
        // What this client had seen when the transaction began: commits acknowledged later (by other threads of
        // this client) must not keep moving the target the cut has to reach.
        long[] minimum = minimum(client.sessionTokens(), client.cluster().partitionCount());
        CompletableFuture<long[]> fetched = new CompletableFuture<>();
        askForCut(health, nodes, 0, deadline, minimum, null, fetched);
        return fetched;
    }

    /** Asks the next node for a cut covering {@code minimum}; tries the next one 2 ms after an unusable answer. */
    private void askForCut(
            NodeHealth health,
            List<HostPort> nodes,
            int attempt,
            long deadline,
            long[] minimum,
            @Nullable DuroException last,
            CompletableFuture<long[]> fetched) {
        if (System.nanoTime() >= deadline) {
            fetched.completeExceptionally(new UnavailableException(
                    "no consistent cut covering this client's own writes within " + SESSION_WAIT_MAX.toSeconds() + " s"
                            + (last == null ? "" : ": " + last.getMessage()),
                    false));
            return;
        }
        HostPort node = nodes.get(Math.floorMod(attempt, nodes.size()));
        // The node answers once its cut covers the minimum, or after its wait limit with the cut it has.
        client.snapshotVectorAsync(node, consistency, minimum).whenComplete((vector, failure) -> {
            DuroException failed = null;
            if (failure == null) {
                health.served(node);
                if (covers(vector, minimum)) {
                    fetched.complete(vector);
                    return;
                }
            } else {
                Throwable cause = Transport.causeOf(failure);
                if (cause instanceof UnavailableException unavailable) {
                    failed = unavailable;
                } else if (cause instanceof ServerErrorException error && error.code() == ErrorCode.NOT_READY) {
                    // A node that cannot build a cut yet (no leader reachable for its ReadIndex, a partition it
                    // has not heard from): another node may well can, so try the next one instead of failing.
                    failed = error;
                } else {
                    fetched.completeExceptionally(cause);
                    return;
                }
                health.failed(node);
            }
            DuroException lastNow = failed != null ? failed : last;
            CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS)
                    .execute(() -> askForCut(health, nodes, attempt + 1, deadline, minimum, lastNow, fetched));
        });
    }

    private static long[] minimum(Map<Integer, Long> session, int partitions) {
        long[] minimum = new long[partitions];
        session.forEach((partition, snapshot) -> {
            if (partition < partitions) {
                minimum[partition] = snapshot;
            }
        });
        return minimum;
    }

    private static boolean covers(long[] vector, long[] minimum) {
        for (int p = 0; p < Math.min(vector.length, minimum.length); p++) {
            if (vector[p] < minimum[p]) {
                return false;
            }
        }
        return true;
    }
}
