package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Write;
import dev.duro.core.wire.CommitTransaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.Nullable;

/**
 * What an update transaction touched: per partition the snapshot its first read fixed, the keys it read, the ranges
 * it scanned and the writes it buffered; from these, the participants of its commit request. Not thread-safe:
 * {@link CommitProtocol} guards it with the lock that also freezes the transaction when its commit starts.
 */
final class Footprint {
    private final TreeMap<Integer, Long> snapshots = new TreeMap<>();
    /** Keys read from the cluster, with their partition. */
    private final Map<Bytes, Integer> reads = new LinkedHashMap<>();

    private final Map<Bytes, Write> writes = new LinkedHashMap<>();
    private final Map<Bytes, Integer> writePartitions = new HashMap<>();
    /** Ranges scanned, per partition: each a read of every key in it (docs/ranges.md). */
    private final Map<Integer, List<KeyRange>> scanned = new TreeMap<>();

    private int scannedCount;

    /** The snapshot fixed at {@code partition}, or null if no read has fixed it yet. */
    @Nullable
    Long snapshotAt(int partition) {
        return snapshots.get(partition);
    }

    /** Fixes {@code partition}'s snapshot to {@code served} unless one is fixed already; returns the fixed one. */
    long fixSnapshot(int partition, long served) {
        Long fixed = snapshots.putIfAbsent(partition, served);
        return fixed == null ? served : fixed;
    }

    void addReads(List<Bytes> keys, int partition) {
        for (Bytes key : keys) {
            reads.putIfAbsent(key, partition);
        }
    }

    /**
     * Adds the ranges a scan observed, per partition; each counts as one entry towards the transaction key limit,
     * checked before anything is added.
     */
    void addScanned(Map<Integer, List<KeyRange>> observed, Limits limits) {
        int more = 0;
        for (List<KeyRange> ranges : observed.values()) {
            more += ranges.size();
        }
        if (more > 0) {
            limits.checkTransactionKeys(reads.size() + writes.size() + scannedCount + more);
        }
        observed.forEach((partition, ranges) ->
                scanned.computeIfAbsent(partition, p -> new ArrayList<>()).addAll(ranges));
        scannedCount += more;
    }

    /** This transaction's buffered writes of keys inside {@code range}. */
    List<Write> writesIn(KeyRange range) {
        List<Write> inside = new ArrayList<>();
        for (Write write : writes.values()) {
            if (range.contains(write.key())) {
                inside.add(write);
            }
        }
        return inside;
    }

    /** This transaction's own write of {@code key}, if it made one. */
    @Nullable
    Write written(Bytes key) {
        return writes.get(key);
    }

    void buffer(Write write, int partition) {
        writes.put(write.key(), write);
        writePartitions.put(write.key(), partition);
    }

    /** Checks the transaction's key limit before it reads or writes {@code keys}; keys it has already count once. */
    void checkMoreKeys(List<Bytes> keys, Limits limits) {
        int more = 0;
        for (Bytes key : keys) {
            if (!reads.containsKey(key) && !writes.containsKey(key)) {
                more++;
            }
        }
        if (more > 0) {
            limits.checkTransactionKeys(reads.size() + writes.size() + scannedCount + more);
        }
    }

    /** Nothing to certify: no writes, and reads at one partition at most (S-DUR §III-B). */
    boolean readOnlyAtOnePartition() {
        return writes.isEmpty() && snapshots.size() <= 1;
    }

    /** Per partition written but not read yet (no snapshot fixed there), one key written there. */
    Map<Integer, Bytes> writtenUnread() {
        Map<Integer, Bytes> unread = new TreeMap<>();
        writePartitions.forEach((key, partition) -> {
            if (!snapshots.containsKey(partition)) {
                unread.putIfAbsent(partition, key);
            }
        });
        return unread;
    }

    /**
     * The commit request's participants: every partition read, scanned or written, with its snapshot, its sets and
     * its scanned ranges.
     */
    List<CommitTransaction.Participant> participants() {
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
                if (Objects.requireNonNull(writePartitions.get(key), "a written key's partition") == partition) {
                    writeSet.add(write);
                }
            });
            participants.add(new CommitTransaction.Participant(
                    partition,
                    Objects.requireNonNull(snapshots.get(partition), "a participant's snapshot"),
                    readSet,
                    writeSet,
                    scanned.getOrDefault(partition, List.of())));
        }
        return participants;
    }
}
