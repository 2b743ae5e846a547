package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A whole update transaction as a client hands it to a coordinator for termination (docs/architecture.md §2, step 3). The
 * coordinator appends one commit request per participant to that partition's log; a local transaction has one
 * participant.
 *
 * @param participants one entry per partition the transaction touches, ascending by partition, no duplicates
 */
public record CommitTransaction(long requestId, TxId tid, List<Participant> participants) implements ClientRequest {
    /**
     * The part of the transaction one partition certifies.
     *
     * @param snapshot {@code st[partition]}
     * @param readSet keys read at this partition; a key that is also written belongs in {@code writeSet} only (a
     *     write is certified as a read), and the transaction key limit counts the entries of both sets
     * @param writeSet buffered writes to keys of this partition
     * @param scannedRanges ranges the transaction scanned here, each a read of every key in it (docs/ranges.md);
     *     each counts as one entry towards the transaction key limit
     */
    public record Participant(
            int partition, long snapshot, List<Bytes> readSet, List<Write> writeSet, List<KeyRange> scannedRanges) {
        public Participant {
            checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
            checkArgument(snapshot >= 0, "snapshot must be >= 0: %s", snapshot);
            readSet = List.copyOf(readSet);
            writeSet = List.copyOf(writeSet);
            scannedRanges = List.copyOf(scannedRanges);
        }

        /** A participant that scanned nothing. */
        public Participant(int partition, long snapshot, List<Bytes> readSet, List<Write> writeSet) {
            this(partition, snapshot, readSet, writeSet, List.of());
        }

        public int keyCount() {
            return readSet.size() + writeSet.size() + scannedRanges.size();
        }
    }

    public CommitTransaction {
        Objects.requireNonNull(tid, "tid");
        participants = List.copyOf(participants);
        checkArgument(!participants.isEmpty(), "a transaction has at least one participant");
        for (int i = 1; i < participants.size(); i++) {
            checkArgument(
                    participants.get(i).partition() > participants.get(i - 1).partition(),
                    "participants must ascend by partition without duplicates");
        }
    }

    /** The partitions the transaction touches, ascending. */
    public List<Integer> partitions() {
        List<Integer> partitions = new ArrayList<>(participants.size());
        for (Participant participant : participants) {
            partitions.add(participant.partition());
        }
        return List.copyOf(partitions);
    }

    public boolean isGlobal() {
        return participants.size() > 1;
    }

    /** Whether any participant carries scanned ranges (the frame then ends with them). */
    public boolean hasScannedRanges() {
        for (Participant participant : participants) {
            if (!participant.scannedRanges().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Read-set, write-set and scanned-range entries over all participants: what the transaction key limit counts. */
    public int keyCount() {
        int keys = 0;
        for (Participant participant : participants) {
            keys += participant.keyCount();
        }
        return keys;
    }

    @Override
    public MessageType type() {
        return MessageType.COMMIT_TRANSACTION;
    }
}
