package dev.duro.core.engine;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The globals this replica finished (from the votes, or from another participant's logged decision) whose
 * {@link Decision} it has not seen in this partition's log yet, with when it last proposed each. A global's outcome
 * goes into every participant's own log (docs/window-safety.md), so each is proposed into this log until it is
 * delivered here.
 *
 * <p>Local state: rebuilt from the retained outcomes on restore; bounded like the buffered votes (a dropped one is only
 * proposed by another replica). Whether this replica is the designated voter is {@link GlobalTermination}'s to know;
 * it is passed in where it matters.
 */
final class UnloggedDecisions {
    /** The most decisions one tick proposes again, or asks other partitions for. */
    static final int DECISIONS_PER_TICK_MAX = 256;

    private final int partition;
    private final EngineSettings settings;
    private final EffectBuffer effects;
    private final LinkedHashMap<TxId, UnloggedDecision> unlogged = new LinkedHashMap<>();

    private static final class UnloggedDecision {
        final Decision decision;
        /** When it was last proposed; {@link Long#MIN_VALUE}: due now; -1: not timed yet. */
        long proposedMillis;

        UnloggedDecision(Decision decision, long proposedMillis) {
            this.decision = decision;
            this.proposedMillis = proposedMillis;
        }
    }

    UnloggedDecisions(int partition, EngineSettings settings, EffectBuffer effects) {
        this.partition = partition;
        this.settings = settings;
        this.effects = effects;
    }

    /** This replica became the designated voter: it logs what its predecessor may not have, at the next tick. */
    void allDueNow() {
        for (UnloggedDecision waiting : unlogged.values()) {
            waiting.proposedMillis = Long.MIN_VALUE;
        }
    }

    /** A global finished here before its decision was in this partition's log: it goes there. */
    void track(Outcome outcome, boolean designatedVoter) {
        Decision decision = new Decision(outcome, partition);
        if (designatedVoter) {
            effects.emit(new Effect.ProposeDecision(decision, partition));
        }
        unlogged.put(outcome.tid(), new UnloggedDecision(decision, -1));
        if (unlogged.size() > settings.bufferedVotesMax()) {
            Iterator<TxId> oldest = unlogged.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /** A decision on {@code tid} was delivered: whoever logged it, it is in this partition's log now. */
    void logged(TxId tid) {
        unlogged.remove(tid);
    }

    /** After a restore: the finished globals whose decision is not in the log yet are proposed again. */
    void restore(OutcomeRetention retention) {
        retention.decided().forEach((tid, known, pscBefore) -> trackRestored(known));
        retention.pinnedGlobals().forEach(pin -> trackRestored(pin.decided()));
    }

    private void trackRestored(Decided known) {
        if (known.finished() && known.global() && !known.loggedBy(partition)) {
            unlogged.put(
                    known.finishedOutcome().tid(),
                    new UnloggedDecision(new Decision(known.finishedOutcome(), partition), -1));
        }
    }

    /**
     * Proposes the decisions this replica finished from votes and has not seen in the log: the designated voter
     * when it finishes them (and again after {@code abortRequestAfterMillis}), every other replica after twice
     * that, since the voter may have died before its proposal was committed.
     */
    void proposeDue(long nowMillis, boolean designatedVoter) {
        if (unlogged.isEmpty()) {
            return;
        }
        long after = settings.abortRequestAfterMillis() * (designatedVoter ? 1 : 2);
        int proposed = 0;
        for (UnloggedDecision waiting : unlogged.values()) {
            if (waiting.proposedMillis == -1) {
                waiting.proposedMillis = nowMillis;
            } else if (waiting.proposedMillis == Long.MIN_VALUE || nowMillis - waiting.proposedMillis >= after) {
                effects.emit(new Effect.ProposeDecision(waiting.decision, partition));
                waiting.proposedMillis = nowMillis;
                if (++proposed == DECISIONS_PER_TICK_MAX) {
                    return;
                }
            }
        }
    }
}
