package dev.duro.core.engine;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.engine.PartitionEngine.Pending;
import java.util.List;

/**
 * Takes in what ends a global transaction besides this partition's own certification: the votes of the other
 * participants ({@link PartitionEngine#receiveVote}) and the {@link Decision}s this partition's log delivers. Each is
 * checked against what is known already (a partition's vote never changes, a decision agrees with every vote), added
 * to the pending transaction it is for, and the head of {@code PENDING} is finished if it now can be. For a
 * transaction finished here it answers requests for this partition's vote or logged decision; a vote for one not
 * delivered yet is buffered ({@link GlobalTermination}).
 *
 * <p>It never certifies and never numbers: a vote or a decision only finishes what {@link LogDelivery} queued.
 */
final class VoteTracker {
    private final int partition;
    private final PendingQueue pending;
    private final EffectBuffer effects;
    private final OutcomeRetention retention;
    private final GlobalTermination termination;

    VoteTracker(
            int partition,
            PendingQueue pending,
            EffectBuffer effects,
            OutcomeRetention retention,
            GlobalTermination termination) {
        this.partition = partition;
        this.pending = pending;
        this.effects = effects;
        this.retention = retention;
        this.termination = termination;
    }

    /** A vote from another partition. Duplicates and votes for finished transactions are harmless. */
    void acceptVote(Vote vote) {
        TxId tid = vote.tid();
        Decided known = retention.retained(tid);
        if (known != null && known.finished()) {
            Vote own = retention.voteOf(known);
            if (vote.replyWanted() && own != null) {
                effects.emit(new Effect.SendVote(own, List.of(vote.partition())));
            }
            if (vote.decisionWanted()
                    && termination.designatedVoter()
                    && known.loggedBy(partition)
                    && known.finishedOutcome().participants().contains(vote.partition())) {
                // The requester may wait for our logged decision to forget this transaction, or to finish it.
                effects.emit(
                        new Effect.ProposeDecision(new Decision(known.finishedOutcome(), partition), vote.partition()));
            }
            return;
        }
        Pending open = pending.get(tid);
        if (open != null) {
            if (open.votes != null && open.request.participants().contains(vote.partition())) {
                GlobalTermination.addVote(open, vote);
                if (vote.replyWanted()) {
                    effects.emit(new Effect.SendVote(open.ownVote, List.of(vote.partition())));
                }
                pending.finishReady();
            }
            return;
        }
        if (known != null) {
            return; // unfinished here but not pending: a request that reused an id (docs/window-safety.md)
        }
        termination.buffer(vote);
    }

    /**
     * A global's outcome as partition {@code loggedBy} logged it: from now on it is in this partition's log too. A
     * pending transaction finishes from it when it reaches the head; a finished one must agree with it. The first
     * time a decision on it reaches this log, the designated voter copies it into the other participants' logs
     * (so they learn this log has it); once every participant's decision is delivered here, it may be forgotten.
     */
    void deliverDecision(Decision decision) {
        TxId tid = decision.tid();
        Outcome outcome = decision.outcome();
        int from = decision.loggedBy();
        termination.decisionLogged(tid);
        Pending open = pending.get(tid);
        if (open != null && open.votes != null) {
            open.votes.values().forEach(vote -> GlobalTermination.checkVoteAgrees(vote, outcome));
            open.decision = outcome;
        }
        boolean newlyLoggedHere = retention.recordLogged(tid, outcome, from);
        if (newlyLoggedHere && termination.designatedVoter()) {
            Decision ours = from == partition ? decision : new Decision(outcome, partition);
            for (int other : GlobalTermination.others(partition, outcome.participants())) {
                effects.emit(new Effect.ProposeDecision(ours, other)); // {@code from} too: it learns this log has it
            }
        }
        pending.finishReady();
    }
}
