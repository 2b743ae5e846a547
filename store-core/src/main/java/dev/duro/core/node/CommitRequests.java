package dev.duro.core.node;

import dev.duro.core.engine.CommitRequest;
import dev.duro.core.wire.CommitTransaction;
import java.util.ArrayList;
import java.util.List;

/** How a coordinator turns a client's {@link CommitTransaction} into the commands it appends to the logs. */
public final class CommitRequests {
    private CommitRequests() {}

    /** One commit request per participant, in partition order, each naming every participant and its snapshot. */
    public static List<CommitRequest> of(CommitTransaction transaction) {
        List<CommitTransaction.Participant> participants = transaction.participants();
        List<Integer> partitions = transaction.partitions();
        List<Long> snapshots = new ArrayList<>(participants.size());
        for (CommitTransaction.Participant participant : participants) {
            snapshots.add(participant.snapshot());
        }
        List<CommitRequest> requests = new ArrayList<>(participants.size());
        for (CommitTransaction.Participant participant : participants) {
            requests.add(new CommitRequest(
                    transaction.tid(),
                    partitions,
                    snapshots,
                    participant.readSet(),
                    participant.writeSet(),
                    participant.scannedRanges()));
        }
        return List.copyOf(requests);
    }
}
