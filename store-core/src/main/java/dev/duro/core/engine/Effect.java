package dev.duro.core.engine;

import java.util.List;

/**
 * What the engine asks its host to do. The engine never does I/O; the host (the Ratis state machine and the
 * server) carries these out.
 */
public sealed interface Effect {
    /** The transaction finished here: answer the client waiting for it, if this replica has one. */
    record Reply(Outcome outcome) implements Effect {}

    /** Send this partition's vote to every replica of each partition in {@code to}. */
    record SendVote(Vote vote, List<Integer> to) implements Effect {}

    /** Propose an {@link AbortRequest} into the log of partition {@code target}, which has not voted. */
    record ProposeAbort(AbortRequest request, int target) implements Effect {}
}
