package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.wire.MultiReadReply;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ScanReply;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * An update transaction's requests to read a partition at the snapshot its first read there fixed. The snapshots
 * themselves are kept by {@link CommitProtocol}, under the transaction's lock; this class only sends the reads and
 * reads again where an answer came from another snapshot. It records nothing: what the application sees enters
 * the footprint through the transaction.
 */
final class SnapshotReads {
    private final DuroClient client;
    private final TxId tid;
    private final CommitProtocol protocol;

    SnapshotReads(DuroClient client, TxId tid, CommitProtocol protocol) {
        this.client = client;
        this.tid = tid;
        this.protocol = protocol;
    }

    CompletableFuture<Bytes> read(int partition, Bytes key) {
        PartitionReader reader = new PartitionReader(client, partition, spread());
        long token = client.sessionToken(partition);
        return atFixedSnapshot(partition, snapshot -> reader.read(key, snapshot, token), ReadReply::snapshot)
                .thenApply(ReadReply::value);
    }

    CompletableFuture<List<VersionedValue>> readAll(int partition, List<Bytes> keys) {
        PartitionReader reader = new PartitionReader(client, partition, spread());
        long token = client.sessionToken(partition);
        return atFixedSnapshot(partition, snapshot -> reader.readAll(keys, snapshot, token), MultiReadReply::snapshot)
                .thenApply(MultiReadReply::values);
    }

    CompletableFuture<ScanReply> scan(int partition, KeyRange range, int limit, boolean descending) {
        PartitionReader reader = new PartitionReader(client, partition, spread());
        long token = client.sessionToken(partition);
        return atFixedSnapshot(
                partition, snapshot -> reader.scan(range, limit, descending, snapshot, token), ScanReply::snapshot);
    }

    /**
     * Reads with {@code read} at the partition's fixed snapshot, or at the latest one (a null argument) if none is
     * fixed yet, which the answer then fixes ({@link CommitProtocol#fixSnapshot}). An answer served at another
     * snapshot than the one fixed meanwhile is read again at the fixed one.
     */
    private <R> CompletableFuture<R> atFixedSnapshot(
            int partition, Function<Long, CompletableFuture<R>> read, ToLongFunction<R> servedAt) {
        return read.apply(protocol.snapshotAt(partition)).thenCompose(reply -> {
            long served = servedAt.applyAsLong(reply);
            long fixed = protocol.fixSnapshot(partition, served);
            return fixed == served ? CompletableFuture.completedFuture(reply) : read.apply(fixed);
        });
    }

    /** Spreads transactions of one client over the replicas of a partition. */
    private int spread() {
        return (int) (tid.sequence() & 0x7fffffff);
    }
}
