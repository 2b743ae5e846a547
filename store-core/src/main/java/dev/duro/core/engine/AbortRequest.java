package dev.duro.core.engine;

import dev.duro.core.TxId;
import java.util.List;

/**
 * Proposed into a silent partition's log by a participant that waited too long for its vote (S-DUR §IV-F).
 * Whichever of the transaction's commit request and this request the log delivers first decides the vote.
 *
 * @param participants all partitions of the transaction, so the abort vote can reach them
 * @param requestedBy the partition that asked
 */
public record AbortRequest(TxId tid, List<Integer> participants, int requestedBy) implements Command {
    public AbortRequest {
        participants = List.copyOf(participants);
    }
}
