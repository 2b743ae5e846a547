package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.certify.Certifier;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.GlobalCommit;
import dev.duro.core.store.MultiVersionStore;
import dev.duro.core.store.VersionedValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The S-DUR server of one partition replica (Algorithm 4), as a plain deterministic object.
 *
 * <h2>Inputs and outputs</h2>
 *
 * <p>The host feeds {@link #deliver} with the partition's log in order, {@link #receiveVote} with votes from
 * other partitions, and {@link #tick} with its clock; each returns the {@link Effect}s to carry out. The
 * engine has no threads, no I/O, no clock and no randomness, so every replica that delivers the same log
 * reaches the same state and the same outcomes, whatever order the votes arrive in.
 *
 * <h2>Numbering (DESIGN §3)</h2>
 *
 * <ul>
 *   <li>Every transaction that passes certification here gets {@code c = ++PSC} and enters {@code PENDING}.
 *   <li>{@code PENDING} finishes strictly in delivery order. A committed transaction installs its writes at
 *       version {@code c}; a finished numbered transaction (committed, or global and aborted by another
 *       partition's vote) sets {@code SC = c}. So every version {@code <= SC} is final: no holes.
 *   <li>A local transaction that fails certification gets no number and is answered at once; a global one
 *       that fails waits in {@code PENDING} like the others, since its vote must still be exchanged.
 * </ul>
 *
 * <h2>Global termination (§IV-C, §IV-F)</h2>
 *
 * <p>A global transaction finishes at the head of {@code PENDING} once a vote from every participant is known;
 * it commits iff all voted commit. The designated voter (the Raft leader) sends this partition's vote on
 * delivery. A head that waits longer than {@code voteResendAfterMillis} makes any replica send its own vote
 * with {@code replyWanted}; any replica that knows its vote answers such a request, also long after
 * deciding, so lost votes are recovered by whoever misses them. A head still waiting after
 * {@code abortRequestAfterMillis} proposes an {@link AbortRequest} into each silent partition's log.
 * There, the log order decides:
 *
 * <ol>
 *   <li>commit request delivered first: certified as usual; the later abort request is ignored.
 *   <li>abort request delivered first: the partition votes abort and keeps a tombstone; the later commit
 *       request is answered from it without certification.
 * </ol>
 */
public final class PartitionEngine {
    /** The most pending transactions behind a waiting head whose votes one resend round asks for. */
    static final int RESEND_BEHIND_HEAD_MAX = 256;

    private final int partition;
    private final EngineSettings settings;
    private final MultiVersionStore store;
    private final Certifier certifier;
    private long snapshotCounter;

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Map<TxId, Pending> pendingByTid = new HashMap<>();
    /**
     * Outcomes kept to answer duplicate commit requests, late abort requests and late votes, in the order the
     * transactions were first delivered here; a pending transaction holds its place with an unfinished entry.
     * The oldest are forgotten only when a command is delivered, so which outcomes a replica still knows is a
     * function of the log alone: it decides how a duplicate is treated, so it must not depend on when votes
     * arrived (outcomes used to be kept in the order they were decided, which does).
     */
    private final RetainedOutcomes decided = new RetainedOutcomes();

    private final ArrayDeque<GlobalCommit> recentGlobals = new ArrayDeque<>();
    /** Votes for transactions not delivered here yet. Arrival order differs per replica; decisions do not. */
    private final LinkedHashMap<TxId, Map<Integer, Vote>> bufferedVotes = new LinkedHashMap<>();

    private boolean designatedVoter;
    private @Nullable TxId watchedHead;
    private long lastResendMillis;
    /** Whether the votes of the transactions behind {@link #watchedHead} were asked for already. */
    private boolean askedBehindWatchedHead;

    private long lastAbortProposalMillis;

    private @Nullable List<Effect> effects;

    /** A delivered transaction that has not finished. */
    static final class Pending {
        final CommitRequest request;
        /** Its number {@code c} here, or 0 if it failed certification here. */
        final long number;

        final Vote ownVote;
        /** For a global transaction: the votes known so far, this partition's included. */
        final @Nullable Map<Integer, Vote> votes;

        Pending(CommitRequest request, long number, Vote ownVote, @Nullable Map<Integer, Vote> votes) {
            this.request = request;
            this.number = number;
            this.ownVote = ownVote;
            this.votes = votes;
        }
    }

    /**
     * A finished transaction: its outcome and, for a global one, this partition's vote. {@link #UNFINISHED} keeps
     * the place of a transaction still pending.
     */
    record Decided(@Nullable Outcome outcome, @Nullable Vote ownVote) {
        static final Decided UNFINISHED = new Decided(null, null);

        boolean finished() {
            return outcome != null;
        }
    }

    public PartitionEngine(int partition, EngineSettings settings) {
        this(partition, settings, new MultiVersionStore(), new Certifier(partition, settings.certification()), 0);
    }

    PartitionEngine(int partition, EngineSettings settings, MultiVersionStore store, Certifier certifier, long sc) {
        this.partition = partition;
        this.settings = settings;
        this.store = store;
        this.certifier = certifier;
        this.snapshotCounter = sc;
    }

    // ---- queries ----

    public int partition() {
        return partition;
    }

    public EngineSettings settings() {
        return settings;
    }

    /** SC: the newest snapshot readers may use. */
    public long snapshotCounter() {
        return snapshotCounter;
    }

    /** PSC: the number of the last transaction that passed certification. */
    public long pendingSnapshotCounter() {
        return certifier.pendingSnapshotCounter();
    }

    public int pendingCount() {
        return pending.size();
    }

    /** The oldest snapshot still readable. */
    public long oldestReadableSnapshot() {
        return store.horizon();
    }

    /**
     * Reads {@code key} at {@code snapshot}, which must not be above {@link #snapshotCounter()}: the host waits
     * (or redirects) until this replica has caught up, never answering from an older snapshot.
     *
     * @throws dev.duro.core.store.SnapshotTooOldException if the snapshot was garbage-collected
     */
    public VersionedValue read(Bytes key, long snapshot) {
        if (snapshot > snapshotCounter) {
            throw new IllegalArgumentException("snapshot " + snapshot + " is above SC " + snapshotCounter);
        }
        return store.get(key, snapshot);
    }

    /** The outcome of a recently finished transaction, if still retained. */
    public @Nullable Outcome outcomeOf(TxId tid) {
        Decided known = finished(tid);
        return known == null ? null : known.outcome();
    }

    /** The retained outcome of {@code tid} if it finished, else null. */
    private @Nullable Decided finished(TxId tid) {
        Decided known = decided.get(tid);
        return known != null && known.finished() ? known : null;
    }

    MultiVersionStore store() {
        return store;
    }

    Certifier certifier() {
        return certifier;
    }

    Iterable<Pending> pendingQueue() {
        return pending;
    }

    boolean isPending(TxId tid) {
        return pendingByTid.containsKey(tid);
    }

    RetainedOutcomes decided() {
        return decided;
    }

    ArrayDeque<GlobalCommit> recentGlobals() {
        return recentGlobals;
    }

    Map<TxId, Map<Integer, Vote>> bufferedVotes() {
        return bufferedVotes;
    }

    // ---- inputs ----

    /** Whether this replica sends the partition's votes on delivery (the Raft leader does). Local state. */
    public void setDesignatedVoter(boolean voter) {
        this.designatedVoter = voter;
    }

    /** Delivers the next command of this partition's log. */
    public List<Effect> deliver(Command command) {
        deliverOne(command);
        return takeEffects();
    }

    /** Delivers every command of one log entry (a batch), in order. */
    public List<Effect> deliverAll(List<? extends Command> commands) {
        for (Command command : commands) {
            deliverOne(command);
        }
        return takeEffects();
    }

    private void deliverOne(Command command) {
        if (command instanceof CommitRequest request) {
            deliverCommit(request);
        } else {
            deliverAbortRequest((AbortRequest) command);
        }
        forgetOldOutcomes();
    }

    private void deliverCommit(CommitRequest request) {
        TxId tid = request.tid();
        if (!request.participants().contains(partition)) {
            throw new IllegalArgumentException("partition " + partition + " is not a participant of " + tid);
        }
        Decided known = finished(tid);
        if (known != null) {
            emit(new Effect.Reply(known.outcome())); // a retried commit: answer with the first outcome
            return;
        }
        if (pendingByTid.containsKey(tid)) {
            return; // a retried commit of a transaction still pending: its reply is on the way
        }
        boolean global = request.isGlobal();
        AbortReason reason = certifier.certify(request.snapshot(), request.readSet(), request.writeSet(), global);
        long number = reason == null ? certifier.record(request.readSet(), request.writeSet()) : 0;
        if (!global) {
            if (reason != null) {
                decide(Outcome.aborted(tid, request.participants(), reason), null);
            } else if (pending.isEmpty()) {
                complete(request, number, null, null, null, false); // nothing to wait for: finish at once
            } else {
                enqueue(new Pending(request, number, new Vote(tid, partition, number, null, false), null));
            }
            return;
        }
        Vote own = new Vote(tid, partition, number, reason, false);
        Map<Integer, Vote> votes = bufferedVotes.remove(tid);
        if (votes == null) {
            votes = new HashMap<>();
        }
        votes.put(partition, own);
        enqueue(new Pending(request, number, own, votes));
        if (designatedVoter) {
            emit(new Effect.SendVote(own, others(request.participants())));
        }
    }

    private void deliverAbortRequest(AbortRequest request) {
        TxId tid = request.tid();
        Pending open = pendingByTid.get(tid);
        Decided known = finished(tid);
        Vote own = open != null ? open.ownVote : known != null ? known.ownVote() : null;
        if (open != null || known != null) {
            // The commit request came first and decided our vote; the requester just lacks it.
            if (designatedVoter && own != null) {
                emit(new Effect.SendVote(own, List.of(request.requestedBy())));
            }
            return;
        }
        if (!request.participants().contains(partition)) {
            throw new IllegalArgumentException("partition " + partition + " is not a participant of " + tid);
        }
        AbortReason reason = AbortReason.abortRequested(partition);
        Vote tombstone = new Vote(tid, partition, 0, reason, false);
        bufferedVotes.remove(tid);
        decide(Outcome.aborted(tid, request.participants(), reason), tombstone);
        if (designatedVoter) {
            emit(new Effect.SendVote(tombstone, others(request.participants())));
        }
    }

    /** A vote from another partition. Duplicates and votes for finished transactions are harmless. */
    public List<Effect> receiveVote(Vote vote) {
        if (vote.partition() != partition) {
            acceptVote(vote);
        }
        return takeEffects();
    }

    private void acceptVote(Vote vote) {
        TxId tid = vote.tid();
        Decided known = finished(tid);
        if (known != null) {
            if (vote.replyWanted() && known.ownVote() != null) {
                emit(new Effect.SendVote(known.ownVote(), List.of(vote.partition())));
            }
            return;
        }
        Pending open = pendingByTid.get(tid);
        if (open != null) {
            if (open.votes != null && open.request.participants().contains(vote.partition())) {
                open.votes.putIfAbsent(vote.partition(), vote.withReplyWanted(false));
                if (vote.replyWanted()) {
                    emit(new Effect.SendVote(open.ownVote, List.of(vote.partition())));
                }
                finishReady();
            }
            return;
        }
        bufferedVotes
                .computeIfAbsent(tid, t -> new HashMap<>())
                .putIfAbsent(vote.partition(), vote.withReplyWanted(false));
        if (bufferedVotes.size() > settings.bufferedVotesMax()) {
            Iterator<TxId> oldest = bufferedVotes.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /**
     * Advances this replica's clock: retransmits votes and proposes abort requests for a global transaction
     * stuck at the head of {@code PENDING}. Never changes replicated state.
     */
    public List<Effect> tick(long nowMillis) {
        Pending head = pending.peekFirst();
        if (head == null || head.votes == null) {
            watchedHead = null;
            return takeEffects();
        }
        TxId tid = head.request.tid();
        if (!tid.equals(watchedHead)) {
            watchedHead = tid;
            askedBehindWatchedHead = false;
            lastResendMillis = nowMillis;
            lastAbortProposalMillis = nowMillis;
            return takeEffects();
        }
        List<Integer> missing = missingVoters(head);
        if (nowMillis - lastResendMillis >= settings.voteResendAfterMillis()) {
            lastResendMillis = nowMillis;
            emit(new Effect.SendVote(head.ownVote.withReplyWanted(true), missing));
            if (!askedBehindWatchedHead) {
                askedBehindWatchedHead = true;
                askForLaterVotes();
            }
        }
        long abortAfter = settings.abortRequestAfterMillis() * (designatedVoter ? 1 : 2);
        if (nowMillis - lastAbortProposalMillis >= abortAfter) {
            lastAbortProposalMillis = nowMillis;
            for (int silent : missing) {
                emit(new Effect.ProposeAbort(new AbortRequest(tid, head.request.participants(), partition), silent));
            }
        }
        return takeEffects();
    }

    /**
     * A head that waits for votes is rarely alone: a replica replaying its log after a restart lacks the votes of
     * every global transaction it delivers, and each would otherwise wait a resend period of its own at the head
     * before asking (about a second per twenty of them). The first resend round for a head therefore also asks
     * for the votes of the pending transactions behind it, boundedly, so they finish in one round trip as soon as
     * the head does. Later rounds for the same head ask for its votes alone: a partition that stays silent is not
     * sent the whole queue every resend period.
     */
    private void askForLaterVotes() {
        Iterator<Pending> behindHead = pending.iterator();
        behindHead.next();
        int asked = 0;
        while (behindHead.hasNext() && asked < RESEND_BEHIND_HEAD_MAX) {
            Pending later = behindHead.next();
            if (later.votes == null) {
                continue;
            }
            List<Integer> lacking = missingVoters(later);
            if (!lacking.isEmpty()) {
                emit(new Effect.SendVote(later.ownVote.withReplyWanted(true), lacking));
                asked++;
            }
        }
    }

    // ---- finishing ----

    private void enqueue(Pending entry) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
        decided.put(entry.request.tid(), Decided.UNFINISHED);
        finishReady();
    }

    /** Finishes transactions from the head of PENDING while they can finish. */
    private void finishReady() {
        while (!pending.isEmpty()) {
            Pending head = pending.peekFirst();
            if (head.votes == null) {
                finish(head, null);
            } else if (head.votes.size() >= head.request.participants().size()
                    && missingVoters(head).isEmpty()) {
                finish(head, firstAbort(head));
            } else {
                return;
            }
        }
    }

    private @Nullable AbortReason firstAbort(Pending head) {
        for (int participant : head.request.participants()) {
            Vote vote = head.votes.get(participant);
            if (!vote.commit()) {
                return vote.reason();
            }
        }
        return null;
    }

    private void finish(Pending head, @Nullable AbortReason abort) {
        pending.pollFirst();
        pendingByTid.remove(head.request.tid());
        complete(head.request, head.number, head.votes, head.votes == null ? null : head.ownVote, abort, true);
    }

    /**
     * Finishes a transaction that left (or never needed) the head of {@code PENDING}: installs its writes if it
     * commits, advances SC past its number, and replies.
     *
     * @param votes every participant's vote for a global transaction; null for a local one
     * @param ownVote this partition's vote, kept with the outcome for a global transaction; null for a local one
     * @param queued it waited in {@code PENDING}, where it already holds its place among the retained outcomes
     */
    private void complete(
            CommitRequest request,
            long number,
            @Nullable Map<Integer, Vote> votes,
            @Nullable Vote ownVote,
            @Nullable AbortReason abort,
            boolean queued) {
        if (number > 0) {
            if (abort == null) {
                List<Write> writes = request.writeSet();
                for (int i = 0, n = writes.size(); i < n; i++) {
                    store.put(writes.get(i).key(), writes.get(i).value(), number);
                }
            }
            snapshotCounter = number;
            store.collectGarbage(snapshotCounter - settings.snapshotsRetained());
        }
        Outcome outcome;
        if (abort != null) {
            outcome = Outcome.aborted(request.tid(), request.participants(), abort);
        } else if (votes == null) {
            outcome = Outcome.committed(request.tid(), request.participants(), List.of(number));
        } else {
            List<Long> versions = new ArrayList<>(request.participants().size());
            for (int participant : request.participants()) {
                versions.add(votes.get(participant).commitNumber());
            }
            outcome = Outcome.committed(request.tid(), request.participants(), versions);
            rememberGlobal(new GlobalCommit(request.tid(), request.participants(), versions));
        }
        if (queued) {
            settle(outcome, ownVote); // keeps the place it took in delivery order
        } else {
            decide(outcome, ownVote);
        }
    }

    /** Records the outcome of a transaction decided as it is delivered (it takes the newest place) and answers. */
    private void decide(Outcome outcome, @Nullable Vote ownVote) {
        decided.put(outcome.tid(), new Decided(outcome, ownVote));
        emit(new Effect.Reply(outcome));
    }

    /**
     * Records the outcome of a transaction that finished from {@code PENDING} in the place it took when it was
     * delivered, and answers. If it stayed pending so long that its place was already forgotten, its outcome is
     * not kept (so all replicas agree on that too, unless one finished it before the place was forgotten).
     */
    private void settle(Outcome outcome, @Nullable Vote ownVote) {
        decided.replace(outcome.tid(), new Decided(outcome, ownVote));
        emit(new Effect.Reply(outcome));
    }

    /** Forgets the outcomes of the transactions delivered longest ago, beyond {@code outcomesRetained}. */
    private void forgetOldOutcomes() {
        while (decided.size() > settings.outcomesRetained()) {
            decided.removeOldest();
        }
    }

    private void rememberGlobal(GlobalCommit global) {
        recentGlobals.addLast(global);
        if (recentGlobals.size() > settings.globalCommitsRetained()) {
            recentGlobals.pollFirst();
        }
    }

    private List<Integer> missingVoters(Pending head) {
        List<Integer> missing = new ArrayList<>(2);
        for (int participant : head.request.participants()) {
            if (!head.votes.containsKey(participant)) {
                missing.add(participant);
            }
        }
        return missing;
    }

    private List<Integer> others(List<Integer> participants) {
        List<Integer> others = new ArrayList<>(participants.size() - 1);
        for (int participant : participants) {
            if (participant != partition) {
                others.add(participant);
            }
        }
        return others;
    }

    // ---- frontiers for the vector-of-snapshots service ----

    /**
     * This partition's frontier: {@code SC}, and the committed global transactions numbered above
     * {@code publishedUpTo} here (those still retained). A publisher passes the counter of its previous
     * frontier, or 0 to send everything retained; the frontier carries it, so a receiver can tell whether it
     * missed one.
     */
    public Frontier frontier(long publishedUpTo) {
        List<GlobalCommit> fresh = new ArrayList<>();
        Iterator<GlobalCommit> newestFirst = recentGlobals.descendingIterator();
        while (newestFirst.hasNext()) {
            GlobalCommit global = newestFirst.next();
            if (numberHere(global) <= publishedUpTo) {
                break;
            }
            fresh.add(global);
        }
        Collections.reverse(fresh);
        long from = Math.max(0, Math.min(publishedUpTo, snapshotCounter));
        return new Frontier(partition, from, snapshotCounter, fresh);
    }

    private long numberHere(GlobalCommit global) {
        return global.numbers().get(global.partitions().indexOf(partition));
    }

    // ---- effects ----

    private void emit(Effect effect) {
        if (effects == null) {
            effects = new ArrayList<>(4);
        }
        effects.add(effect);
    }

    private List<Effect> takeEffects() {
        List<Effect> out = effects;
        effects = null;
        return out == null ? List.of() : out;
    }

    // ---- restore support ----

    void restorePending(CommitRequest request, long number, Vote ownVote, @Nullable Map<Integer, Vote> votes) {
        Pending entry = new Pending(request, number, ownVote, votes);
        pending.addLast(entry);
        pendingByTid.put(request.tid(), entry);
    }
}
