package dev.duro.core.engine;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.Arrays;
import java.util.List;

/**
 * A transaction's termination request at one partition: the part of its readset and writeset that lives here,
 * the snapshot it read at every participant, and every partition it touches (one for a local transaction).
 *
 * @param participants the partitions of the transaction, ascending, without duplicates; contains this one
 * @param snapshots {@code st[q]} for every participant {@code q}, aligned with {@code participants}: this
 *     partition certifies against its own, and names another's in the {@link AbortRequest}s it may propose there
 * @param readSet keys read here (keys in {@code writeSet} are certified as read too and need not repeat)
 * @param writeSet buffered writes to keys of this partition
 * @param scannedRanges ranges scanned here, each a read of every key in it, the absent ones included: certified so
 *     that an insert or delete inside one since the snapshot (a phantom) aborts the transaction (docs/ranges.md)
 */
public record CommitRequest(
        TxId tid,
        List<Integer> participants,
        List<Long> snapshots,
        List<Bytes> readSet,
        List<Write> writeSet,
        List<KeyRange> scannedRanges)
        implements Command {
    public CommitRequest {
        participants = List.copyOf(participants);
        snapshots = List.copyOf(snapshots);
        readSet = List.copyOf(readSet);
        writeSet = List.copyOf(writeSet);
        scannedRanges = List.copyOf(scannedRanges);
        if (participants.isEmpty()) {
            throw new IllegalArgumentException("a transaction has at least one participant");
        }
        for (int i = 1; i < participants.size(); i++) {
            if (participants.get(i) <= participants.get(i - 1)) {
                throw new IllegalArgumentException("participants must ascend without duplicates: " + participants);
            }
        }
        if (snapshots.size() != participants.size()) {
            throw new IllegalArgumentException(
                    "one snapshot per participant: " + snapshots.size() + " for " + participants);
        }
        for (long snapshot : snapshots) {
            if (snapshot < 0) {
                throw new IllegalArgumentException("snapshot must be >= 0: " + snapshot);
            }
        }
    }

    /** A request that scanned no range. */
    public CommitRequest(
            TxId tid, List<Integer> participants, List<Long> snapshots, List<Bytes> readSet, List<Write> writeSet) {
        this(tid, participants, snapshots, readSet, writeSet, List.of());
    }

    /** A request that read every participant at the same counter (tests and single-partition callers). */
    public CommitRequest(
            TxId tid, List<Integer> participants, long snapshot, List<Bytes> readSet, List<Write> writeSet) {
        this(tid, participants, sameSnapshot(participants.size(), snapshot), readSet, writeSet, List.of());
    }

    /**
     * {@code count} copies of {@code snapshot}, in an immutable list that the canonical constructor keeps as it is. One
     * participant's is made without an array: the JIT does not elide that array, 31 bytes more per local transaction
     * in {@code CertifyAndFinishBenchmark}.
     */
    static List<Long> sameSnapshot(int count, long snapshot) {
        if (count == 1) {
            return List.of(snapshot);
        }
        Long[] copies = new Long[count];
        Arrays.fill(copies, snapshot);
        return List.of(copies);
    }

    public boolean isGlobal() {
        return participants.size() > 1;
    }

    /** {@code st[partition]}. */
    public long snapshotAt(int partition) {
        int index = participants.indexOf(partition);
        if (index < 0) {
            throw new IllegalArgumentException("partition " + partition + " is not a participant of " + tid);
        }
        return snapshots.get(index);
    }
}
