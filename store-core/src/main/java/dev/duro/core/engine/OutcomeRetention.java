package dev.duro.core.engine;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * What a partition replica remembers of the transactions delivered to it, and what it knows of those it forgot
 * (docs/architecture.md §5, docs/window-safety.md §2–§3): the retained outcomes, the pinned globals, the forgotten
 * ids. Which ids are retained decides how a duplicate commit request or a late abort request is treated, so it is a
 * function of the log alone: places are taken on delivery, outcomes forgotten only when a command is delivered
 * ({@link #forgetOldOutcomes}), never because a vote arrived.
 */
final class OutcomeRetention {
    private final int partition;
    private final int outcomesRetained;
    /**
     * Outcomes kept to answer duplicate commit requests, late abort requests and late votes, in the order the
     * transactions were first delivered here; a pending transaction holds its place with an unfinished entry.
     * The oldest are forgotten only when a command is delivered, so which outcomes a replica still knows is a
     * function of the log alone: it decides how a duplicate is treated, so it must not depend on when votes
     * arrived.
     */
    private final RetainedOutcomes decided = new RetainedOutcomes();
    /**
     * Globals whose place left {@link #decided} before the {@link Decision}s of all their participants were
     * delivered here, with {@code PSC} before their delivery: kept until they are, since until then another
     * participant may still need this partition's vote, and forgetting stays a function of the log while replicas
     * differ in which globals they have finished.
     */
    private final LinkedHashMap<TxId, Pinned> pinned = new LinkedHashMap<>();
    /** What is known of the ids whose outcome was forgotten. */
    private ForgottenIds forgotten;

    /** A retained outcome whose place was forgotten before its decision was logged. */
    record Pinned(Decided decided, long pscBefore) {}

    OutcomeRetention(int partition, int outcomesRetained) {
        this.partition = partition;
        this.outcomesRetained = outcomesRetained;
        this.forgotten = ForgottenIds.forOutcomesRetained(outcomesRetained);
    }

    /** What is retained of {@code tid}, pinned or not; null if nothing is. */
    @Nullable
    Decided retained(TxId tid) {
        Decided known = decided.get(tid);
        if (known != null) {
            return known;
        }
        Pinned pin = pinned.isEmpty() ? null : pinned.get(tid);
        return pin == null ? null : pin.decided();
    }

    /**
     * Reads ahead what delivering {@code tid} will read here: its lookup, and the oldest outcome that it will push out.
     * Changes nothing.
     */
    int touchNext(TxId tid) {
        return decided.touch(tid, decided.size() >= outcomesRetained);
    }

    /** Whether {@code tid}, read at {@code snapshot} here, may have been delivered and forgotten. */
    boolean mayHaveForgotten(TxId tid, long snapshot) {
        return forgotten.mayHaveForgotten(tid, snapshot);
    }

    /** A transaction just delivered takes the newest place, with {@code PSC} as it was before its delivery. */
    void add(TxId tid, Decided known, long pscBefore) {
        decided.put(tid, known, pscBefore);
    }

    /**
     * Stores a finished transaction's outcome in the place it took when it was delivered, if that place is still
     * retained (or pinned) and still its own. Returns whether its decision has yet to be logged.
     */
    boolean recordFinished(TxId tid, long number, Outcome outcome, @Nullable Vote ownVote) {
        Decided place = decided.get(tid);
        if (place != null) {
            if (!place.finished() && place.number() == number) {
                decided.replace(tid, place.withOutcome(outcome, ownVote));
                return place.global() && !place.loggedBy(partition);
            }
            return false;
        }
        Pinned pin = pinned.isEmpty() ? null : pinned.get(tid);
        if (pin != null && !pin.decided().finished() && pin.decided().number() == number) {
            pinned.put(tid, new Pinned(pin.decided().withOutcome(outcome, ownVote), pin.pscBefore()));
            return !pin.decided().loggedBy(partition);
        }
        return false;
    }

    /**
     * A decision on {@code tid}, logged first by partition {@code from}, was delivered here: it is in this
     * partition's log now. A finished outcome retained must agree with it; a pinned global whose participants'
     * decisions are now all delivered here is forgotten. Returns whether this is the first decision on it that this
     * log holds.
     */
    boolean recordLogged(TxId tid, Outcome outcome, int from) {
        boolean newlyLoggedHere = false;
        Decided known = decided.get(tid);
        if (known != null) {
            checkOutcomesAgree(known, outcome);
            newlyLoggedHere = !known.loggedBy(partition);
            decided.replace(tid, known.withLogged(from).withLogged(partition));
        } else {
            Pinned pin = pinned.get(tid);
            if (pin != null) {
                checkOutcomesAgree(pin.decided(), outcome);
                newlyLoggedHere = !pin.decided().loggedBy(partition);
                Decided logged = pin.decided().withLogged(from).withLogged(partition);
                if (logged.awaitingDecisions()) {
                    pinned.put(tid, new Pinned(logged, pin.pscBefore()));
                } else {
                    pinned.remove(tid);
                    forgotten.add(tid, pin.pscBefore());
                }
            }
        }
        return newlyLoggedHere;
    }

    /**
     * Forgets the outcomes of the transactions delivered longest ago, beyond {@code outcomesRetained}; a global
     * whose participants' decisions were not all delivered yet is pinned instead. Either way an id is recorded as
     * forgotten only once it is gone, so it is answered from what is retained or as unknown, never certified again.
     */
    void forgetOldOutcomes() {
        while (decided.size() > outcomesRetained) {
            TxId oldest = decided.oldest();
            Decided known = Objects.requireNonNull(decided.get(oldest), "the oldest retained outcome");
            long pscBefore = decided.oldestPscBefore();
            decided.removeOldest();
            if (known.awaitingDecisions()) {
                pinned.put(oldest, new Pinned(known, pscBefore));
            } else {
                forgotten.add(oldest, pscBefore);
            }
        }
    }

    /**
     * This partition's vote as retained: its own vote on a global, or an abort vote for a transaction that
     * aborted here without one (a requester that names it as global must not commit it). None for a local
     * commit.
     */
    @Nullable
    Vote voteOf(Decided known) {
        if (known.ownVote() != null) {
            return known.ownVote();
        }
        Outcome outcome = known.outcome();
        return outcome != null && !outcome.committed()
                ? new Vote(outcome.tid(), partition, 0, outcome.reason(), false)
                : null;
    }

    /** Two records of one transaction's outcome must agree on commit or abort and on the commit numbers. */
    private static void checkOutcomesAgree(Decided known, Outcome logged) {
        Outcome outcome = known.outcome();
        if (outcome == null) {
            return;
        }
        if (outcome.committed() != logged.committed() || !outcome.versions().equals(logged.versions())) {
            throw new IllegalStateException("transaction " + logged.tid() + " finished here as " + outcome
                    + " but its logged decision is " + logged + " (replicas decided differently)");
        }
    }

    /** How many places are retained (pinned globals not counted). */
    int retainedCount() {
        return decided.size();
    }

    int pinnedCount() {
        return pinned.size();
    }

    /** The pinned globals, oldest first. */
    Collection<Pinned> pinnedGlobals() {
        return pinned.values();
    }

    long forgottenUpTo() {
        return forgotten.upTo();
    }

    // ---- for the state codec ----

    RetainedOutcomes decided() {
        return decided;
    }

    LinkedHashMap<TxId, Pinned> pinned() {
        return pinned;
    }

    ForgottenIds forgotten() {
        return forgotten;
    }

    void restoreForgotten(ForgottenIds forgottenIds) {
        this.forgotten = forgottenIds;
    }
}
