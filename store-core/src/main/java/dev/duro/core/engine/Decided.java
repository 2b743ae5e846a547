package dev.duro.core.engine;

import dev.duro.core.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * What is retained of a delivered transaction ({@link OutcomeRetention}). An unfinished one (no outcome yet at this
 * replica) keeps its place and its number; a finished one its outcome and, for a global one, this partition's vote.
 *
 * @param number the transaction's number here (0 if it got none), to tell it from a later request that reused its
 *     id
 * @param participantCount how many partitions the transaction touches (1: local)
 * @param decisionsLogged for a global, the participants whose {@link Decision} has been delivered here, ascending (a
 *     tombstone counts as this partition's own); it is forgotten only once all have
 */
record Decided(
        @Nullable Outcome outcome,
        @Nullable Vote ownVote,
        long number,
        int participantCount,
        List<Integer> decisionsLogged) {
    Decided {
        decisionsLogged = List.copyOf(decisionsLogged);
    }

    static Decided unfinished(long number, int participantCount) {
        return new Decided(null, null, number, participantCount, List.of());
    }

    boolean finished() {
        return outcome != null;
    }

    /** The outcome of a {@link #finished} transaction. */
    Outcome finishedOutcome() {
        return Objects.requireNonNull(outcome, "a finished transaction's outcome");
    }

    boolean global() {
        return participantCount > 1;
    }

    /** A global some of whose participants' decisions have not been delivered here yet. */
    boolean awaitingDecisions() {
        return global() && decisionsLogged.size() < participantCount;
    }

    boolean loggedBy(int partition) {
        return decisionsLogged.contains(partition);
    }

    Decided withLogged(int partition) {
        if (decisionsLogged.contains(partition)) {
            return this;
        }
        List<Integer> more = new ArrayList<>(decisionsLogged.size() + 1);
        more.addAll(decisionsLogged);
        more.add(partition);
        more.sort(null);
        return new Decided(outcome, ownVote, number, participantCount, more);
    }

    Decided withOutcome(Outcome finished, @Nullable Vote vote) {
        return new Decided(finished, vote, number, participantCount, decisionsLogged);
    }
}
