package dev.duro.core;

import java.util.List;
import javax.annotation.Nullable;

/**
 * How a transaction ended. A committed transaction carries its version at each participant (its commit number
 * there), which becomes the client's session token for reading its own writes.
 *
 * @param participants the transaction's partitions, ascending
 * @param versions on commit, the commit number at each participant, aligned with {@code participants}
 * @param reason on abort, why
 */
public record Outcome(TxId tid, List<Integer> participants, List<Long> versions, @Nullable AbortReason reason) {
    public Outcome {
        participants = List.copyOf(participants);
        versions = List.copyOf(versions);
    }

    public static Outcome committed(TxId tid, List<Integer> participants, List<Long> versions) {
        return new Outcome(tid, participants, versions, null);
    }

    public static Outcome aborted(TxId tid, List<Integer> participants, AbortReason reason) {
        return new Outcome(tid, participants, List.of(), reason);
    }

    public boolean committed() {
        return reason == null;
    }

    /** The commit number at {@code partition}, or 0 if aborted or not a participant. */
    public long versionAt(int partition) {
        int index = participants.indexOf(partition);
        return committed() && index >= 0 ? versions.get(index) : 0;
    }
}
