package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.KeyRange;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.certify.Certifier;
import dev.duro.core.certify.KeyInterner;
import dev.duro.core.engine.PartitionEngine.Pending;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * What the engine does with each command its log delivers, in log order: the certification flow. A commit request
 * already retained is answered from its outcome (or not yet, while it is pending); one that may have been delivered
 * and forgotten is answered as unknown; any other is certified. A local one is then answered at once, or queued when
 * something is pending before it; a global one is queued with its vote, which the designated voter sends. An abort
 * request delivered before the commit request leaves a tombstone vote; delivered after, it is answered with the vote
 * given then. Either way the first of the two fixes this partition's vote (see {@link PartitionEngine}, "Safe at any
 * retention window"). Decisions go to {@link VoteTracker}, cut advances to {@link DependencyFrontier}; after each
 * command the retention forgets what fell out of its window.
 *
 * <p>Finishing in delivery order is {@link PendingQueue}'s; a local commit with nothing pending before it is
 * installed and answered here at once, since nothing can finish before it.
 */
final class LogDelivery {
    private final int partition;
    private final Certifier certifier;
    private final PendingQueue pending;
    private final VoteTracker voteTracker;
    private final EffectBuffer effects;
    private final OutcomeRetention retention;
    private final GlobalTermination termination;
    private final DependencyFrontier frontiers;
    /** The store's objects for keys it holds, which the certification window keeps instead of the log's copies. */
    private final KeyInterner storeKeys;
    /**
     * The seam of the simulation's {@code certify-forgotten} mutant (set only by tests, through
     * {@code EngineMutants}): the engine treats every id it no longer retains as new, as it did before
     * docs/window-safety.md, so the simulation can show that its checks catch what that breaks.
     */
    boolean mutantTreatsForgottenAsNew;
    /**
     * The seam of the simulation's {@code ignore-ranges} mutant (set only by tests, through {@code EngineMutants}):
     * the engine certifies and records transactions as if they had scanned nothing, so phantoms commit.
     */
    boolean mutantIgnoresRanges;
    /** A sum of what the read-ahead passes read, kept so that the compiler keeps the reads; never used. */
    private int touched;

    LogDelivery(
            int partition,
            Certifier certifier,
            PendingQueue pending,
            VoteTracker voteTracker,
            EffectBuffer effects,
            OutcomeRetention retention,
            GlobalTermination termination,
            DependencyFrontier frontiers,
            KeyInterner storeKeys) {
        this.partition = partition;
        this.certifier = certifier;
        this.pending = pending;
        this.voteTracker = voteTracker;
        this.effects = effects;
        this.retention = retention;
        this.termination = termination;
        this.frontiers = frontiers;
        this.storeKeys = storeKeys;
    }

    /** Delivers the next command of this partition's log. */
    void deliver(Command command) {
        if (!command.participants().contains(partition)) {
            throw new IllegalArgumentException("partition " + partition + " is not a participant of " + command.tid());
        }
        if (command instanceof CommitRequest request) {
            deliverCommit(request);
        } else if (command instanceof AbortRequest request) {
            deliverAbortRequest(request);
        } else if (command instanceof Decision decision) {
            voteTracker.deliverDecision(decision);
        } else {
            frontiers.raiseCutFloor((CutAdvance) command);
        }
        retention.forgetOldOutcomes();
    }

    private void deliverCommit(CommitRequest request) {
        TxId tid = request.tid();
        boolean global = request.isGlobal();
        // A local transaction with nothing pending before it finishes, and installs, as soon as it is certified.
        boolean installsAtOnce = !global && pending.isEmpty();
        // Read ahead what this delivery will read, so that its cache misses overlap (docs/performance.md, "Reading
        // ahead"): on a store of a million keys they are most of its cost. Nothing changes here.
        touched += retention.touchNext(tid)
                + certifier.touchNext(request.writeSet())
                + pending.touch(request, installsAtOnce);
        Decided known = retention.retained(tid);
        if (known != null) {
            if (known.finished()) {
                effects.emit(
                        new Effect.Reply(known.finishedOutcome())); // a retried commit: answer with the first outcome
            }
            return; // otherwise still pending here: its reply is on the way
        }
        long snapshot = request.snapshotAt(partition);
        if (!mutantTreatsForgottenAsNew && retention.mayHaveForgotten(tid, snapshot)) {
            // It may have been delivered before and forgotten since: certifying it again could commit it twice or
            // contradict the vote given then.
            termination.takeBuffered(tid);
            effects.emit(new Effect.OutcomeUnknown(tid));
            return;
        }
        long pscBefore = certifier.pendingSnapshotCounter();
        List<KeyRange> ranges = mutantIgnoresRanges ? List.of() : request.scannedRanges();
        AbortReason reason = certifier.certify(snapshot, request.readSet(), request.writeSet(), ranges, global);
        long number = reason == null ? certifier.record(request.readSet(), request.writeSet(), ranges, storeKeys) : 0;
        if (!global) {
            if (reason != null) {
                decide(Outcome.aborted(tid, request.participants(), reason), null, 0, List.of(), pscBefore);
            } else if (installsAtOnce) {
                Outcome outcome = Outcome.committed(tid, request.participants(), List.of(number));
                pending.install(request, number, outcome);
                decide(outcome, null, number, List.of(), pscBefore); // nothing to wait for: finish at once
            } else {
                pending.enqueue(
                        new Pending(request, number, new Vote(tid, partition, number, null, false), null), pscBefore);
            }
            return;
        }
        Vote own = new Vote(tid, partition, number, reason, false);
        Map<Integer, Vote> votes = new HashMap<>();
        votes.put(partition, own);
        Map<Integer, Vote> early = termination.takeBuffered(tid);
        Pending entry = new Pending(request, number, own, votes);
        if (early != null) {
            early.values().forEach(vote -> GlobalTermination.addVote(entry, vote));
        }
        pending.enqueue(entry, pscBefore);
        if (termination.designatedVoter()) {
            effects.emit(new Effect.SendVote(own, GlobalTermination.others(partition, request.participants())));
        }
    }

    private void deliverAbortRequest(AbortRequest request) {
        TxId tid = request.tid();
        Decided known = retention.retained(tid);
        if (known != null) {
            // The commit request came first and decided our vote; the requester just lacks it.
            Pending open = pending.get(tid);
            Vote own = open != null ? open.ownVote : retention.voteOf(known);
            if (termination.designatedVoter() && own != null) {
                effects.emit(new Effect.SendVote(own, List.of(request.requestedBy())));
            }
            return;
        }
        if (!mutantTreatsForgottenAsNew && retention.mayHaveForgotten(tid, request.targetSnapshot())) {
            return; // the commit request may have been delivered and forgotten: a tombstone could contradict it
        }
        AbortReason reason = AbortReason.abortRequested(partition);
        Vote tombstone = new Vote(tid, partition, 0, reason, false);
        termination.takeBuffered(tid);
        Outcome aborted = Outcome.aborted(tid, request.participants(), reason);
        decide(aborted, tombstone, 0, List.of(partition), certifier.pendingSnapshotCounter());
        if (termination.designatedVoter()) {
            List<Integer> others = GlobalTermination.others(partition, request.participants());
            effects.emit(new Effect.SendVote(tombstone, others));
            for (int other : others) {
                effects.emit(new Effect.ProposeDecision(new Decision(aborted, partition), other));
            }
        }
    }

    /** Records the outcome of a transaction decided as it is delivered (it takes the newest place) and answers. */
    private void decide(
            Outcome outcome, @Nullable Vote ownVote, long number, List<Integer> decisionsLogged, long pscBefore) {
        retention.add(
                outcome.tid(),
                new Decided(outcome, ownVote, number, outcome.participants().size(), decisionsLogged),
                pscBefore);
        effects.emit(new Effect.Reply(outcome));
    }
}
