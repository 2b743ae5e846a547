package dev.duro.core.engine;

import dev.duro.core.TxId;
import java.util.List;

/**
 * Proposed into a silent partition's log by a participant that waited too long for its vote (S-DUR §IV-F).
 * Whichever of the transaction's commit request and this request the log delivers first decides the vote.
 *
 * @param participants all partitions of the transaction, so the abort vote can reach them
 * @param requestedBy the partition that asked
 * @param targetSnapshot the transaction's snapshot at the partition whose log this request enters (from the
 *     requester's copy of the commit request). The target tombstones the transaction only if that snapshot is
 *     newer than every outcome it has forgotten: otherwise its commit request may have been delivered there and
 *     forgotten, and a tombstone could contradict the vote it gave then (docs/window-safety.md).
 */
public record AbortRequest(TxId tid, List<Integer> participants, int requestedBy, long targetSnapshot)
        implements Command {
    public AbortRequest {
        participants = List.copyOf(participants);
        if (targetSnapshot < 0) {
            throw new IllegalArgumentException("target snapshot must be >= 0: " + targetSnapshot);
        }
    }
}
