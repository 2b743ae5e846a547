package dev.duro.core.engine;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import java.util.List;

/**
 * What the engine asks its host to do. The engine never does I/O; the host (the Ratis state machine and the
 * server) carries these out.
 */
public sealed interface Effect {
    /** The transaction finished here: answer the client waiting for it, if this replica has one. */
    record Reply(Outcome outcome) implements Effect {}

    /**
     * A commit request repeated a transaction id whose outcome this partition may have forgotten: it was not
     * certified again. Answer the client waiting for it with {@code OUTCOME_UNKNOWN}. Every replica gives this
     * answer at the same point of the log.
     */
    record OutcomeUnknown(TxId tid) implements Effect {}

    /** Send this partition's vote to every replica of each partition in {@code to}. */
    record SendVote(Vote vote, List<Integer> to) implements Effect {}

    /** Propose an {@link AbortRequest} into the log of partition {@code target}, which has not voted. */
    record ProposeAbort(AbortRequest request, int target) implements Effect {}

    /**
     * Propose a {@link Decision} into the log of partition {@code target}: this partition's own (the decision a
     * replica reached from the votes) or another participant's (telling it this partition has logged it).
     */
    record ProposeDecision(Decision decision, int target) implements Effect {}
}
