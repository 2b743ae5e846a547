package dev.duro.core.engine;

import dev.duro.core.TxId;
import java.util.List;

/**
 * A consistent cut proposed into one partition's log (partition 0's, by its leader's node), so that the cuts
 * read-only transactions read form one chain (docs/window-safety.md, "Cuts form a chain"). Every replica of that
 * partition raises its cut floor to the component-wise maximum of the floor and this cut: the maximum of two
 * consistent cuts is consistent, and floors along the log only grow, so any two floors (at any replicas, at any
 * nodes that learnt them) are comparable. Two read-only transactions therefore never see two independent commits
 * in opposite orders.
 *
 * @param partition the partition whose log holds it
 * @param cut one snapshot per partition, consistent (from a snapshot-vector tracker)
 */
public record CutAdvance(int partition, List<Long> cut) implements Command {
    /** Not a transaction's: the id this command reports as its {@link #tid()}. */
    public static final TxId NO_TRANSACTION = new TxId(0, 0);

    public CutAdvance {
        cut = List.copyOf(cut);
        for (long snapshot : cut) {
            if (snapshot < 0) {
                throw new IllegalArgumentException("cut snapshots must be >= 0: " + cut);
            }
        }
    }

    @Override
    public TxId tid() {
        return NO_TRANSACTION;
    }

    @Override
    public List<Integer> participants() {
        return List.of(partition);
    }
}
