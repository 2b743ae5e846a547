package dev.duro.core.engine;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.List;

/**
 * A transaction's termination request at one partition: the part of its readset and writeset that lives here,
 * the snapshot it read here, and every partition it touches (one for a local transaction).
 *
 * @param participants the partitions of the transaction, ascending, without duplicates; contains this one
 * @param snapshot {@code st[p]}: the snapshot counter the transaction read at this partition
 * @param readSet keys read here (keys in {@code writeSet} are certified as read too and need not repeat)
 * @param writeSet buffered writes to keys of this partition
 */
public record CommitRequest(
        TxId tid, List<Integer> participants, long snapshot, List<Bytes> readSet, List<Write> writeSet)
        implements Command {
    public CommitRequest {
        participants = List.copyOf(participants);
        readSet = List.copyOf(readSet);
        writeSet = List.copyOf(writeSet);
        if (participants.isEmpty()) {
            throw new IllegalArgumentException("a transaction has at least one participant");
        }
        for (int i = 1; i < participants.size(); i++) {
            if (participants.get(i) <= participants.get(i - 1)) {
                throw new IllegalArgumentException("participants must ascend without duplicates: " + participants);
            }
        }
        if (snapshot < 0) {
            throw new IllegalArgumentException("snapshot must be >= 0: " + snapshot);
        }
    }

    public boolean isGlobal() {
        return participants.size() > 1;
    }
}
