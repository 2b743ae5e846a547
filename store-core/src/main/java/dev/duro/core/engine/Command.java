package dev.duro.core.engine;

import dev.duro.core.TxId;
import java.util.List;

/** What a partition's log delivers to its engine, in the same order at every replica. */
public sealed interface Command permits CommitRequest, AbortRequest, Decision, CutAdvance {
    /** The transaction it concerns ({@link CutAdvance#NO_TRANSACTION} for a cut advance). */
    TxId tid();

    /** Every partition of the transaction, ascending; the partition whose log holds the command is one of them. */
    List<Integer> participants();
}
