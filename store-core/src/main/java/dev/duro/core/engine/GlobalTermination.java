package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * Global termination at one partition replica (S-DUR §IV-C, §IV-F; docs/architecture.md §4): votes buffered for
 * transactions not delivered yet, checking and adding the votes of pending globals, the designated-voter role, and
 * what the clock drives ({@link #tick}): vote resends, abort requests, decision proposals and requests, timed from
 * the global watched at the head of {@code PENDING}. {@link UnloggedDecisions} keeps the decisions finished here but
 * not yet seen in the log, {@link PendingQueue} the transactions and their finishing; {@link VoteTracker} takes in
 * the votes and decisions that arrive.
 *
 * <p>A global transaction finishes at the head of {@code PENDING} once a vote from every participant is known;
 * it commits iff all voted commit. The designated voter (the Raft leader) sends this partition's vote on
 * delivery. A head that waits longer than {@code voteResendAfterMillis} makes any replica send its own vote
 * with {@code replyWanted}; any replica that knows its vote answers such a request, also long after
 * deciding, so lost votes are recovered by whoever misses them. If the head still waits after
 * {@code abortRequestAfterMillis}, the designated voter proposes an {@link AbortRequest} into each silent
 * partition's log. There, the log order decides:
 *
 * <ol>
 *   <li>commit request delivered first: certified as usual; the later abort request is ignored.
 *   <li>abort request delivered first: the partition votes abort and keeps a tombstone; the later commit
 *       request is answered from it without certification.
 * </ol>
 *
 * <p>All but the buffered votes is local state: timers start afresh on restore, and the unlogged decisions are
 * rebuilt from the retained outcomes ({@link #restoreUnlogged}).
 */
final class GlobalTermination {
    /** The most pending transactions behind a waiting head whose votes one resend round asks for. */
    static final int RESEND_BEHIND_HEAD_MAX = 256;

    private final int partition;
    private final EngineSettings settings;
    private final EffectBuffer effects;
    private final OutcomeRetention retention;

    /** Votes for transactions not delivered here yet. Arrival order differs per replica; decisions do not. */
    private final LinkedHashMap<TxId, Map<Integer, Vote>> bufferedVotes = new LinkedHashMap<>();
    /** Local: globals finished here whose decision this log has not delivered yet. */
    private final UnloggedDecisions unlogged;

    private boolean designatedVoter;
    private @Nullable TxId watchedHead;
    /** The tick time at which {@link #watchedHead} was first seen at the head of {@code PENDING}; -1 if none. */
    private long watchedHeadSinceMillis = -1;

    private long lastResendMillis;
    /** Whether the votes of the transactions behind {@link #watchedHead} were asked for already. */
    private boolean askedBehindWatchedHead;

    private long lastAbortProposalMillis;
    private long lastDecisionRequestMillis = -1;

    GlobalTermination(int partition, EngineSettings settings, EffectBuffer effects, OutcomeRetention retention) {
        this.partition = partition;
        this.settings = settings;
        this.effects = effects;
        this.retention = retention;
        this.unlogged = new UnloggedDecisions(partition, settings, effects);
    }

    boolean designatedVoter() {
        return designatedVoter;
    }

    /** See {@link PartitionEngine#setDesignatedVoter}. */
    void setDesignatedVoter(boolean voter) {
        if (voter && !designatedVoter) {
            unlogged.allDueNow(); // a new voter logs what its predecessor may not have
        }
        this.designatedVoter = voter;
    }

    /** See {@link PartitionEngine#headWaitingSinceMillis}. */
    long headWaitingSinceMillis() {
        return watchedHeadSinceMillis;
    }

    // ---- votes ----

    /** Removes and returns the votes buffered for {@code tid}, which is being delivered; null if none. */
    @Nullable
    Map<Integer, Vote> takeBuffered(TxId tid) {
        return bufferedVotes.remove(tid);
    }

    /** Keeps a vote for a transaction not delivered here (the first from each partition), the oldest dropped. */
    void buffer(Vote vote) {
        bufferedVotes
                .computeIfAbsent(vote.tid(), t -> new HashMap<>())
                .putIfAbsent(vote.partition(), vote.withReplyWanted(false));
        if (bufferedVotes.size() > settings.bufferedVotesMax()) {
            Iterator<TxId> oldest = bufferedVotes.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    boolean isBuffered(TxId tid) {
        return bufferedVotes.containsKey(tid);
    }

    int bufferedCount() {
        return bufferedVotes.size();
    }

    /** The buffered votes themselves, for the state codec. */
    LinkedHashMap<TxId, Map<Integer, Vote>> bufferedVotes() {
        return bufferedVotes;
    }

    /** Adds another partition's vote; a partition's vote never changes, so a second one must agree. */
    static void addVote(PartitionEngine.Pending entry, Vote vote) {
        if (!entry.request.participants().contains(vote.partition())) {
            return;
        }
        Vote known = entry.globalVotes().putIfAbsent(vote.partition(), vote.withReplyWanted(false));
        if (known != null && (known.commit() != vote.commit() || known.commitNumber() != vote.commitNumber())) {
            throw new IllegalStateException("partition " + vote.partition() + " voted twice on " + vote.tid() + ": "
                    + known + " and " + vote + " (a partition's vote must never change)");
        }
        if (entry.decision != null) {
            checkVoteAgrees(vote, entry.decision);
        }
    }

    /** A vote known for a transaction must agree with its decided outcome. */
    static void checkVoteAgrees(Vote vote, Outcome outcome) {
        boolean agrees = outcome.committed()
                ? vote.commit() && vote.commitNumber() == outcome.versionAt(vote.partition())
                : true;
        if (!agrees) {
            throw new IllegalStateException(
                    "vote " + vote + " contradicts the decided outcome " + outcome + " (votes must never change)");
        }
    }

    static List<Integer> missingVoters(PartitionEngine.Pending head) {
        List<Integer> missing = new ArrayList<>(2);
        for (int participant : head.request.participants()) {
            if (!head.globalVotes().containsKey(participant)) {
                missing.add(participant);
            }
        }
        return missing;
    }

    /** The outcome of a global whose participants have all voted: committed iff all voted commit. */
    static Outcome outcomeFromVotes(PartitionEngine.Pending head) {
        List<Integer> participants = head.request.participants();
        List<Long> versions = new ArrayList<>(participants.size());
        for (int participant : participants) {
            Vote vote = Objects.requireNonNull(head.globalVotes().get(participant), "every participant voted");
            if (!vote.commit()) {
                AbortReason reason = Objects.requireNonNull(vote.reason(), "an abort vote's reason");
                return Outcome.aborted(head.request.tid(), participants, reason);
            }
            versions.add(vote.commitNumber());
        }
        return Outcome.committed(head.request.tid(), participants, versions);
    }

    /** The participants other than {@code partition}: where its votes and decisions go. */
    static List<Integer> others(int partition, List<Integer> participants) {
        List<Integer> others = new ArrayList<>(participants.size() - 1);
        for (int participant : participants) {
            if (participant != partition) {
                others.add(participant);
            }
        }
        return others;
    }

    // ---- decisions not yet in this log ----

    /** A global finished here before its decision was in this partition's log: it goes there. */
    void trackUnlogged(Outcome outcome) {
        unlogged.track(outcome, designatedVoter);
    }

    /** A decision on {@code tid} was delivered: whoever logged it, it is in this partition's log now. */
    void decisionLogged(TxId tid) {
        unlogged.logged(tid);
    }

    /** After a restore: the finished globals whose decision is not in the log yet are proposed again. */
    void restoreUnlogged() {
        unlogged.restore(retention);
    }

    // ---- the clock ----

    /**
     * Logs decisions not yet seen in the log, retransmits votes and proposes abort requests for a global
     * transaction stuck at the head of {@code pending}. Never changes replicated state.
     */
    void tick(long nowMillis, ArrayDeque<PartitionEngine.Pending> pending) {
        unlogged.proposeDue(nowMillis, designatedVoter);
        askForMissingDecisions(nowMillis);
        PartitionEngine.Pending head = pending.peekFirst();
        if (head == null || head.votes == null) {
            watchedHead = null;
            watchedHeadSinceMillis = -1;
            return;
        }
        TxId tid = head.request.tid();
        if (!tid.equals(watchedHead)) {
            watchedHead = tid;
            watchedHeadSinceMillis = nowMillis;
            askedBehindWatchedHead = false;
            lastResendMillis = nowMillis;
            lastAbortProposalMillis = nowMillis;
            return;
        }
        if (head.decision != null) {
            return;
        }
        List<Integer> missing = missingVoters(head);
        if (nowMillis - lastResendMillis >= settings.voteResendAfterMillis()) {
            lastResendMillis = nowMillis;
            effects.emit(new Effect.SendVote(head.ownVote.withReplyWanted(true), missing));
            if (!askedBehindWatchedHead) {
                askedBehindWatchedHead = true;
                askForLaterVotes(pending);
            }
        }
        if (designatedVoter && nowMillis - lastAbortProposalMillis >= settings.abortRequestAfterMillis()) {
            lastAbortProposalMillis = nowMillis;
            for (int silent : missing) {
                effects.emit(new Effect.ProposeAbort(
                        new AbortRequest(tid, head.request.participants(), partition, head.request.snapshotAt(silent)),
                        silent));
            }
        }
    }

    /**
     * A pinned global waits for the decisions of participants that have not reached this partition's log (their
     * voter was away when they logged it, or the copy was lost). Every {@code abortRequestAfterMillis} the
     * designated voter asks those partitions for their votes: a partition that logged its decision answers with a
     * copy of it. Bounded per round; the oldest first.
     */
    private void askForMissingDecisions(long nowMillis) {
        if (!designatedVoter || retention.pinnedCount() == 0) {
            return;
        }
        if (lastDecisionRequestMillis == -1
                || nowMillis - lastDecisionRequestMillis < settings.abortRequestAfterMillis()) {
            if (lastDecisionRequestMillis == -1) {
                lastDecisionRequestMillis = nowMillis;
            }
            return;
        }
        lastDecisionRequestMillis = nowMillis;
        int asked = 0;
        for (OutcomeRetention.Pinned pin : retention.pinnedGlobals()) {
            Decided known = pin.decided();
            Vote own = retention.voteOf(known);
            if (!known.finished() || own == null) {
                continue;
            }
            List<Integer> missing = new ArrayList<>(2);
            for (int participant : known.finishedOutcome().participants()) {
                if (participant != partition && !known.loggedBy(participant)) {
                    missing.add(participant);
                }
            }
            if (!missing.isEmpty()) {
                effects.emit(new Effect.SendVote(own.withReplyWanted(false).withDecisionWanted(), missing));
                if (++asked == UnloggedDecisions.DECISIONS_PER_TICK_MAX) {
                    return;
                }
            }
        }
    }

    /**
     * A head that waits for votes is rarely alone: a replica replaying its log after a restart lacks the votes of
     * every global transaction it delivers, and each would otherwise wait a resend period of its own at the head
     * before asking (about a second per twenty of them). The first resend round for a head therefore also asks
     * for the votes of the pending transactions behind it, boundedly, so they finish in one round trip as soon as
     * the head does. Later rounds for the same head ask for its votes alone: a partition that stays silent is not
     * sent the whole queue every resend period.
     */
    private void askForLaterVotes(ArrayDeque<PartitionEngine.Pending> pending) {
        Iterator<PartitionEngine.Pending> behindHead = pending.iterator();
        behindHead.next();
        int asked = 0;
        while (behindHead.hasNext() && asked < RESEND_BEHIND_HEAD_MAX) {
            PartitionEngine.Pending later = behindHead.next();
            if (later.votes == null || later.decision != null) {
                continue;
            }
            List<Integer> lacking = missingVoters(later);
            if (!lacking.isEmpty()) {
                effects.emit(new Effect.SendVote(later.ownVote.withReplyWanted(true), lacking));
                asked++;
            }
        }
    }
}
