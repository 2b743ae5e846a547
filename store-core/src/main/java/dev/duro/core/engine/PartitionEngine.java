package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.certify.Certifier;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.store.MultiVersionStore;
import dev.duro.core.store.VersionedValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <h2>Numbering</h2>
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
 * <h2>Safe at any retention window (docs/window-safety.md)</h2>
 *
 * <p>Outcomes are retained for {@code outcomesRetained} deliveries. What was forgotten may turn an answer into
 * "unknown", never into a different decision. The invariants, checked where they can be:
 *
 * <ol>
 *   <li><b>A partition's vote on a transaction never changes.</b> It is fixed by the first of the commit request
 *       and an abort request that the log delivers; a later copy of either changes nothing. An id that is not
 *       retained may have been delivered and forgotten ({@link ForgottenIds}: a transaction reads a snapshot no
 *       newer than {@code PSC} at any later point of the log, and the forgotten ids are kept in bloom filters).
 *       Such a commit request is answered {@link Effect.OutcomeUnknown} and such an abort request leaves no
 *       tombstone. Votes that arrive are checked against the votes already known, and against the decision.
 *   <li><b>A global transaction's outcome is recorded in each participant's own log.</b> The replica that
 *       finishes it first proposes a {@link Decision}; a replica replaying the log finishes it from that record,
 *       whatever the other partitions still remember, and one that finished it already checks that the record
 *       agrees. The voter then copies the decision into the other participants' logs.
 *   <li><b>A participant forgets a global only once every participant's decision is in its log</b> (it is pinned
 *       beyond {@code outcomesRetained} until then). So no participant can still need a vote another one forgot,
 *       and which ids are retained stays a function of the log.
 *   <li><b>Only the designated voter proposes abort requests</b>; its host makes only a caught-up leader the voter.
 *   <li><b>Frontiers carry a dependency vector</b> (see {@link #frontier}), a running maximum that is never
 *       forgotten, instead of a list of recent global commits.
 * </ol>
 */
public final class PartitionEngine {
    /** The most pending transactions behind a waiting head whose votes one resend round asks for. */
    static final int RESEND_BEHIND_HEAD_MAX = 256;
    /** The most decisions one tick proposes again, or asks other partitions for. */
    static final int DECISIONS_PER_TICK_MAX = 256;

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
    /**
     * The seam of the simulation's {@code certify-forgotten} mutant (set only by tests, through
     * {@code EngineMutants}): the engine treats every id it no longer retains as new, as it did before
     * docs/window-safety.md, so the simulation can show that its checks catch what that breaks.
     */
    boolean mutantTreatsForgottenAsNew;
    /**
     * For each partition {@code q}, the highest number at {@code q} of any global committed here at or below
     * {@code SC}: the frontier's dependency vector. Grows to the highest partition seen.
     */
    private long[] dependencies = new long[0];
    /** The newest cut of the chain delivered in this log ({@link CutAdvance}); empty until one is. */
    private long[] cutFloor = new long[0];

    /** Votes for transactions not delivered here yet. Arrival order differs per replica; decisions do not. */
    private final LinkedHashMap<TxId, Map<Integer, Vote>> bufferedVotes = new LinkedHashMap<>();
    /**
     * Local: globals this replica finished from the votes whose {@link Decision} it has not seen in the log,
     * with when it last proposed it. Rebuilt from the retained outcomes on restore; bounded like the buffered
     * votes (a dropped one is only proposed by another replica).
     */
    private final LinkedHashMap<TxId, UnloggedDecision> unlogged = new LinkedHashMap<>();

    private boolean designatedVoter;
    private @Nullable TxId watchedHead;
    /** The tick time at which {@link #watchedHead} was first seen at the head of {@code PENDING}; -1 if none. */
    private long watchedHeadSinceMillis = -1;

    private long lastResendMillis;
    /** Whether the votes of the transactions behind {@link #watchedHead} were asked for already. */
    private boolean askedBehindWatchedHead;

    private long lastAbortProposalMillis;
    private long lastDecisionRequestMillis = -1;

    private @Nullable List<Effect> effects;

    /** A delivered transaction that has not finished. */
    static final class Pending {
        final CommitRequest request;
        /** Its number {@code c} here, or 0 if it failed certification here. */
        final long number;

        final Vote ownVote;
        /** For a global transaction: the votes known so far, this partition's included. */
        final @Nullable Map<Integer, Vote> votes;
        /** For a global transaction: its outcome, once a {@link Decision} for it was delivered here. */
        @Nullable
        Outcome decision;

        Pending(CommitRequest request, long number, Vote ownVote, @Nullable Map<Integer, Vote> votes) {
            this.request = request;
            this.number = number;
            this.ownVote = ownVote;
            this.votes = votes;
        }
    }

    /**
     * What is retained of a delivered transaction. An unfinished one (no outcome yet at this replica) keeps its
     * place and its number; a finished one its outcome and, for a global one, this partition's vote.
     *
     * @param number the transaction's number here (0 if it got none), to tell it from a later request that
     *     reused its id
     * @param participantCount how many partitions the transaction touches (1: local)
     * @param decisionsLogged for a global, the participants whose {@link Decision} has been delivered here,
     *     ascending (a tombstone counts as this partition's own); it is forgotten only once all have
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

    /** A retained outcome whose place was forgotten before its decision was logged. */
    record Pinned(Decided decided, long pscBefore) {}

    private static final class UnloggedDecision {
        final Decision decision;
        /** When it was last proposed; {@link Long#MIN_VALUE}: due now; -1: not timed yet. */
        long proposedMillis;

        UnloggedDecision(Decision decision, long proposedMillis) {
            this.decision = decision;
            this.proposedMillis = proposedMillis;
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
        this.forgotten = ForgottenIds.forOutcomesRetained(settings.outcomesRetained());
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

    /**
     * Since when (in {@link #tick} time) the global transaction now at the head of {@code PENDING} has waited
     * there for votes or its decision, as of the last tick; -1 if none waits. Operators watch its age: everything
     * behind the head waits with it.
     */
    public long headWaitingSinceMillis() {
        return watchedHeadSinceMillis;
    }

    /**
     * Checks the engine's invariants (docs/architecture.md §3) and throws {@link IllegalStateException} naming the
     * first one broken. O(pending): the simulation runs it after every step of every replica; the host need not,
     * since the steps that could break the ordering invariants check them as they go.
     *
     * <ul>
     *   <li>No holes: the numbered pending transactions are exactly {@code SC+1 .. PSC}, in order, so when nothing
     *       is pending {@code SC = PSC}; nothing is installed above {@code SC}.
     *   <li>{@code PENDING} and its index hold the same transactions; no vote waits in the buffer for a delivered
     *       one.
     *   <li>Bounded retention: the retained outcomes and the buffered votes within their limits (as set when the
     *       state was built: a restart with smaller limits trims them as new entries arrive).
     *   <li>The dependency vector's entry for this partition is a number that has finished here.
     * </ul>
     */
    public void checkInvariants() {
        long psc = certifier.pendingSnapshotCounter();
        long expected = snapshotCounter;
        for (Pending entry : pending) {
            if (entry.number != 0 && entry.number != ++expected) {
                throw broken("pending " + entry.request.tid() + " is numbered " + entry.number + ", expected "
                        + expected + " (SC " + snapshotCounter + ")");
            }
            if (pendingByTid.get(entry.request.tid()) != entry) {
                throw broken("pending " + entry.request.tid() + " is missing from the index");
            }
            if (bufferedVotes.containsKey(entry.request.tid())) {
                throw broken("votes for delivered " + entry.request.tid() + " wait in the buffer");
            }
        }
        if (expected != psc) {
            throw broken("numbers up to " + expected + " are finished or pending, PSC is " + psc);
        }
        if (pendingByTid.size() != pending.size()) {
            throw broken("PENDING holds " + pending.size() + ", its index " + pendingByTid.size());
        }
        if (store.newestVersion() > snapshotCounter) {
            throw broken("version " + store.newestVersion() + " installed above SC " + snapshotCounter);
        }
        if (decided.size() > settings.outcomesRetained()) {
            throw broken(decided.size() + " outcomes retained, at most " + settings.outcomesRetained());
        }
        if (bufferedVotes.size() > settings.bufferedVotesMax()) {
            throw broken(bufferedVotes.size() + " buffered votes, at most " + settings.bufferedVotesMax());
        }
        if (partition < dependencies.length && dependencies[partition] > snapshotCounter) {
            throw broken("depends on number " + dependencies[partition] + " here, above SC " + snapshotCounter);
        }
    }

    private IllegalStateException broken(String what) {
        return new IllegalStateException("partition " + partition + " engine invariant broken: " + what);
    }

    /** The oldest snapshot still readable. */
    public long oldestReadableSnapshot() {
        return store.horizon();
    }

    /**
     * {@code PSC} just before the newest delivery whose outcome this partition forgot (-1 while none was): only a
     * commit that read here at or below it can be a repeat of a forgotten one.
     */
    public long forgottenUpTo() {
        return forgotten.upTo();
    }

    /** Globals kept beyond {@code outcomesRetained} until every participant's decision is delivered here. */
    public int pinnedCount() {
        return pinned.size();
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
        Decided known = retained(tid);
        return known == null ? null : known.outcome();
    }

    /** What is retained of {@code tid}, pinned or not; null if nothing is. */
    private @Nullable Decided retained(TxId tid) {
        Decided known = decided.get(tid);
        if (known != null) {
            return known;
        }
        Pinned pin = pinned.isEmpty() ? null : pinned.get(tid);
        return pin == null ? null : pin.decided();
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

    LinkedHashMap<TxId, Pinned> pinned() {
        return pinned;
    }

    long[] dependencies() {
        return dependencies;
    }

    ForgottenIds forgotten() {
        return forgotten;
    }

    Map<TxId, Map<Integer, Vote>> bufferedVotes() {
        return bufferedVotes;
    }

    // ---- inputs ----

    /**
     * Whether this replica sends the partition's votes on delivery, proposes abort requests and logs decisions
     * first. Local state: the host sets it on the Raft leader once it has applied the log it knows to be
     * committed, so a replica still replaying old entries never proposes an abort request for a transaction
     * its peers finished long ago.
     */
    public void setDesignatedVoter(boolean voter) {
        if (voter && !designatedVoter) {
            for (UnloggedDecision waiting : unlogged.values()) {
                waiting.proposedMillis = Long.MIN_VALUE; // a new voter logs what its predecessor may not have
            }
        }
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
        if (!command.participants().contains(partition)) {
            throw new IllegalArgumentException("partition " + partition + " is not a participant of " + command.tid());
        }
        if (command instanceof CommitRequest request) {
            deliverCommit(request);
        } else if (command instanceof AbortRequest request) {
            deliverAbortRequest(request);
        } else if (command instanceof Decision decision) {
            deliverDecision(decision);
        } else {
            raiseCutFloor((CutAdvance) command);
        }
        forgetOldOutcomes();
    }

    private void deliverCommit(CommitRequest request) {
        TxId tid = request.tid();
        Decided known = retained(tid);
        if (known != null) {
            if (known.finished()) {
                emit(new Effect.Reply(known.outcome())); // a retried commit: answer with the first outcome
            }
            return; // otherwise still pending here: its reply is on the way
        }
        long snapshot = request.snapshotAt(partition);
        if (!mutantTreatsForgottenAsNew && forgotten.mayHaveForgotten(tid, snapshot)) {
            // It may have been delivered before and forgotten since: certifying it again could commit it twice or
            // contradict the vote given then.
            bufferedVotes.remove(tid);
            emit(new Effect.OutcomeUnknown(tid));
            return;
        }
        long pscBefore = certifier.pendingSnapshotCounter();
        boolean global = request.isGlobal();
        AbortReason reason = certifier.certify(snapshot, request.readSet(), request.writeSet(), global);
        long number = reason == null ? certifier.record(request.readSet(), request.writeSet()) : 0;
        if (!global) {
            if (reason != null) {
                decide(Outcome.aborted(tid, request.participants(), reason), null, 0, List.of(), pscBefore);
            } else if (pending.isEmpty()) {
                Outcome outcome = Outcome.committed(tid, request.participants(), List.of(number));
                install(request, number, outcome);
                decide(outcome, null, number, List.of(), pscBefore); // nothing to wait for: finish at once
            } else {
                enqueue(new Pending(request, number, new Vote(tid, partition, number, null, false), null), pscBefore);
            }
            return;
        }
        Vote own = new Vote(tid, partition, number, reason, false);
        Map<Integer, Vote> votes = new HashMap<>();
        votes.put(partition, own);
        Map<Integer, Vote> early = bufferedVotes.remove(tid);
        Pending entry = new Pending(request, number, own, votes);
        if (early != null) {
            early.values().forEach(vote -> addVote(entry, vote));
        }
        enqueue(entry, pscBefore);
        if (designatedVoter) {
            emit(new Effect.SendVote(own, others(request.participants())));
        }
    }

    private void deliverAbortRequest(AbortRequest request) {
        TxId tid = request.tid();
        Decided known = retained(tid);
        if (known != null) {
            // The commit request came first and decided our vote; the requester just lacks it.
            Pending open = pendingByTid.get(tid);
            Vote own = open != null ? open.ownVote : voteOf(known);
            if (designatedVoter && own != null) {
                emit(new Effect.SendVote(own, List.of(request.requestedBy())));
            }
            return;
        }
        if (!mutantTreatsForgottenAsNew && forgotten.mayHaveForgotten(tid, request.targetSnapshot())) {
            return; // the commit request may have been delivered and forgotten: a tombstone could contradict it
        }
        AbortReason reason = AbortReason.abortRequested(partition);
        Vote tombstone = new Vote(tid, partition, 0, reason, false);
        bufferedVotes.remove(tid);
        Outcome aborted = Outcome.aborted(tid, request.participants(), reason);
        decide(aborted, tombstone, 0, List.of(partition), pendingSnapshotCounter());
        if (designatedVoter) {
            List<Integer> others = others(request.participants());
            emit(new Effect.SendVote(tombstone, others));
            for (int other : others) {
                emit(new Effect.ProposeDecision(new Decision(aborted, partition), other));
            }
        }
    }

    /**
     * A global's outcome as partition {@code loggedBy} logged it: from now on it is in this partition's log too. A
     * pending transaction finishes from it when it reaches the head; a finished one must agree with it. The first
     * time a decision on it reaches this log, the designated voter copies it into the other participants' logs
     * (so they learn this log has it); once every participant's decision is delivered here, it may be forgotten.
     */
    private void deliverDecision(Decision decision) {
        TxId tid = decision.tid();
        Outcome outcome = decision.outcome();
        int from = decision.loggedBy();
        unlogged.remove(tid); // whoever logged it, the decision is in this partition's log now
        Pending open = pendingByTid.get(tid);
        if (open != null && open.votes != null) {
            open.votes.values().forEach(vote -> checkVoteAgrees(vote, outcome));
            open.decision = outcome;
        }
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
        if (newlyLoggedHere && designatedVoter) {
            Decision ours = from == partition ? decision : new Decision(outcome, partition);
            for (int other : others(outcome.participants())) {
                emit(new Effect.ProposeDecision(ours, other)); // {@code from} too: it learns this log has it
            }
        }
        finishReady();
    }

    /** The floor becomes the component-wise maximum of itself and the cut: consistent, and never lower. */
    private void raiseCutFloor(CutAdvance advance) {
        List<Long> cut = advance.cut();
        if (cut.size() > cutFloor.length) {
            cutFloor = Arrays.copyOf(cutFloor, cut.size());
        }
        for (int q = 0; q < cut.size(); q++) {
            cutFloor[q] = Math.max(cutFloor[q], cut.get(q));
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
        Decided known = retained(tid);
        if (known != null && known.finished()) {
            Vote own = voteOf(known);
            if (vote.replyWanted() && own != null) {
                emit(new Effect.SendVote(own, List.of(vote.partition())));
            }
            if (vote.decisionWanted()
                    && designatedVoter
                    && known.loggedBy(partition)
                    && known.outcome().participants().contains(vote.partition())) {
                // The requester may wait for our logged decision to forget this transaction, or to finish it.
                emit(new Effect.ProposeDecision(new Decision(known.outcome(), partition), vote.partition()));
            }
            return;
        }
        Pending open = pendingByTid.get(tid);
        if (open != null) {
            if (open.votes != null && open.request.participants().contains(vote.partition())) {
                addVote(open, vote);
                if (vote.replyWanted()) {
                    emit(new Effect.SendVote(open.ownVote, List.of(vote.partition())));
                }
                finishReady();
            }
            return;
        }
        if (known != null) {
            return; // unfinished here but not pending: a request that reused an id (docs/window-safety.md)
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

    /** Adds another partition's vote; a partition's vote never changes, so a second one must agree. */
    private void addVote(Pending entry, Vote vote) {
        if (!entry.request.participants().contains(vote.partition())) {
            return;
        }
        Vote known = entry.votes.putIfAbsent(vote.partition(), vote.withReplyWanted(false));
        if (known != null && (known.commit() != vote.commit() || known.commitNumber() != vote.commitNumber())) {
            throw new IllegalStateException("partition " + vote.partition() + " voted twice on " + vote.tid() + ": "
                    + known + " and " + vote + " (a partition's vote must never change)");
        }
        if (entry.decision != null) {
            checkVoteAgrees(vote, entry.decision);
        }
    }

    /**
     * This partition's vote as retained: its own vote on a global, or an abort vote for a transaction that
     * aborted here without one (a requester that names it as global must not commit it). None for a local
     * commit.
     */
    private @Nullable Vote voteOf(Decided known) {
        if (known.ownVote() != null) {
            return known.ownVote();
        }
        Outcome outcome = known.outcome();
        return outcome != null && !outcome.committed()
                ? new Vote(outcome.tid(), partition, 0, outcome.reason(), false)
                : null;
    }

    /**
     * Advances this replica's clock: logs decisions not yet seen in the log, retransmits votes and proposes abort
     * requests for a global transaction stuck at the head of {@code PENDING}. Never changes replicated state.
     */
    public List<Effect> tick(long nowMillis) {
        proposeUnloggedDecisions(nowMillis);
        askForMissingDecisions(nowMillis);
        Pending head = pending.peekFirst();
        if (head == null || head.votes == null) {
            watchedHead = null;
            watchedHeadSinceMillis = -1;
            return takeEffects();
        }
        TxId tid = head.request.tid();
        if (!tid.equals(watchedHead)) {
            watchedHead = tid;
            watchedHeadSinceMillis = nowMillis;
            askedBehindWatchedHead = false;
            lastResendMillis = nowMillis;
            lastAbortProposalMillis = nowMillis;
            return takeEffects();
        }
        if (head.decision != null) {
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
        if (designatedVoter && nowMillis - lastAbortProposalMillis >= settings.abortRequestAfterMillis()) {
            lastAbortProposalMillis = nowMillis;
            for (int silent : missing) {
                emit(new Effect.ProposeAbort(
                        new AbortRequest(tid, head.request.participants(), partition, head.request.snapshotAt(silent)),
                        silent));
            }
        }
        return takeEffects();
    }

    /**
     * Proposes the decisions this replica finished from votes and has not seen in the log: the designated voter
     * when it finishes them (and again after {@code abortRequestAfterMillis}), every other replica after twice
     * that, since the voter may have died before its proposal was committed.
     */
    private void proposeUnloggedDecisions(long nowMillis) {
        if (unlogged.isEmpty()) {
            return;
        }
        long after = settings.abortRequestAfterMillis() * (designatedVoter ? 1 : 2);
        int proposed = 0;
        for (UnloggedDecision waiting : unlogged.values()) {
            if (waiting.proposedMillis == -1) {
                waiting.proposedMillis = nowMillis;
            } else if (waiting.proposedMillis == Long.MIN_VALUE || nowMillis - waiting.proposedMillis >= after) {
                emit(new Effect.ProposeDecision(waiting.decision, partition));
                waiting.proposedMillis = nowMillis;
                if (++proposed == DECISIONS_PER_TICK_MAX) {
                    return;
                }
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
        if (!designatedVoter || pinned.isEmpty()) {
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
        for (Pinned pin : pinned.values()) {
            Decided known = pin.decided();
            Vote own = voteOf(known);
            if (!known.finished() || own == null) {
                continue;
            }
            List<Integer> missing = new ArrayList<>(2);
            for (int participant : known.outcome().participants()) {
                if (participant != partition && !known.loggedBy(participant)) {
                    missing.add(participant);
                }
            }
            if (!missing.isEmpty()) {
                emit(new Effect.SendVote(own.withReplyWanted(false).withDecisionWanted(), missing));
                if (++asked == DECISIONS_PER_TICK_MAX) {
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
    private void askForLaterVotes() {
        Iterator<Pending> behindHead = pending.iterator();
        behindHead.next();
        int asked = 0;
        while (behindHead.hasNext() && asked < RESEND_BEHIND_HEAD_MAX) {
            Pending later = behindHead.next();
            if (later.votes == null || later.decision != null) {
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

    private void enqueue(Pending entry, long pscBefore) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
        decided.put(
                entry.request.tid(),
                Decided.unfinished(entry.number, entry.request.participants().size()),
                pscBefore);
        finishReady();
    }

    /** Finishes transactions from the head of PENDING while they can finish. */
    private void finishReady() {
        while (!pending.isEmpty()) {
            Pending head = pending.peekFirst();
            if (head.votes == null) {
                finish(head, Outcome.committed(head.request.tid(), head.request.participants(), List.of(head.number)));
            } else if (head.decision != null) {
                finish(head, head.decision);
            } else if (head.votes.size() >= head.request.participants().size()
                    && missingVoters(head).isEmpty()) {
                finish(head, outcomeFromVotes(head));
            } else {
                return;
            }
        }
    }

    private Outcome outcomeFromVotes(Pending head) {
        List<Integer> participants = head.request.participants();
        List<Long> versions = new ArrayList<>(participants.size());
        for (int participant : participants) {
            Vote vote = head.votes.get(participant);
            if (!vote.commit()) {
                return Outcome.aborted(head.request.tid(), participants, vote.reason());
            }
            versions.add(vote.commitNumber());
        }
        return Outcome.committed(head.request.tid(), participants, versions);
    }

    private void finish(Pending head, Outcome outcome) {
        pending.pollFirst();
        pendingByTid.remove(head.request.tid(), head);
        install(head.request, head.number, outcome);
        Vote ownVote = head.votes == null ? null : head.ownVote;
        if (head.votes != null) {
            checkVoteAgrees(head.ownVote, outcome);
        }
        boolean ownDecisionUnlogged = recordFinished(head, outcome, ownVote);
        emit(new Effect.Reply(outcome));
        if (ownDecisionUnlogged) {
            trackUnlogged(outcome); // finished from the votes, or from another participant's logged decision
        }
    }

    /**
     * Stores a finished transaction's outcome in the place it took when it was delivered, if that place is still
     * retained (or pinned) and still its own. Returns whether its decision has yet to be logged.
     */
    private boolean recordFinished(Pending head, Outcome outcome, @Nullable Vote ownVote) {
        TxId tid = head.request.tid();
        Decided place = decided.get(tid);
        if (place != null) {
            if (!place.finished() && place.number() == head.number) {
                decided.replace(tid, place.withOutcome(outcome, ownVote));
                return place.global() && !place.loggedBy(partition);
            }
            return false;
        }
        Pinned pin = pinned.isEmpty() ? null : pinned.get(tid);
        if (pin != null && !pin.decided().finished() && pin.decided().number() == head.number) {
            pinned.put(tid, new Pinned(pin.decided().withOutcome(outcome, ownVote), pin.pscBefore()));
            return !pin.decided().loggedBy(partition);
        }
        return false;
    }

    /** A global finished here before its decision was in this partition's log: it goes there. */
    private void trackUnlogged(Outcome outcome) {
        Decision decision = new Decision(outcome, partition);
        if (designatedVoter) {
            emit(new Effect.ProposeDecision(decision, partition));
        }
        unlogged.put(outcome.tid(), new UnloggedDecision(decision, -1));
        if (unlogged.size() > settings.bufferedVotesMax()) {
            Iterator<TxId> oldest = unlogged.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /** Installs a finished numbered transaction's writes if it committed, and advances SC past its number. */
    private void install(CommitRequest request, long number, Outcome outcome) {
        if (number == 0) {
            return;
        }
        if (number != snapshotCounter + 1) {
            // Numbers are given consecutively and numbered transactions finish in delivery order, which is number
            // order: each one moves SC by exactly one, so no version below SC is ever missing (no holes).
            throw new IllegalStateException(
                    "transaction " + request.tid() + " numbered " + number + " finishes at SC " + snapshotCounter);
        }
        if (outcome.committed()) {
            List<Write> writes = request.writeSet();
            for (int i = 0, n = writes.size(); i < n; i++) {
                store.put(writes.get(i).key(), writes.get(i).value(), number);
            }
            if (request.isGlobal()) {
                addDependencies(outcome);
            }
        }
        snapshotCounter = number;
        store.collectGarbage(snapshotCounter - settings.snapshotsRetained());
    }

    private void addDependencies(Outcome committed) {
        List<Integer> participants = committed.participants();
        int highest = participants.get(participants.size() - 1);
        if (highest >= dependencies.length) {
            dependencies = Arrays.copyOf(dependencies, highest + 1);
        }
        for (int i = 0; i < participants.size(); i++) {
            int other = participants.get(i);
            if (other != partition) {
                dependencies[other] =
                        Math.max(dependencies[other], committed.versions().get(i));
            }
        }
    }

    /** Records the outcome of a transaction decided as it is delivered (it takes the newest place) and answers. */
    private void decide(
            Outcome outcome, @Nullable Vote ownVote, long number, List<Integer> decisionsLogged, long pscBefore) {
        decided.put(
                outcome.tid(),
                new Decided(outcome, ownVote, number, outcome.participants().size(), decisionsLogged),
                pscBefore);
        emit(new Effect.Reply(outcome));
    }

    /**
     * Forgets the outcomes of the transactions delivered longest ago, beyond {@code outcomesRetained}; a global
     * whose participants' decisions were not all delivered yet is pinned instead. Either way an id is recorded as
     * forgotten only once it is gone, so it is answered from what is retained or as unknown, never certified again.
     */
    private void forgetOldOutcomes() {
        while (decided.size() > settings.outcomesRetained()) {
            TxId oldest = decided.oldest();
            Decided known = decided.get(oldest);
            long pscBefore = decided.oldestPscBefore();
            decided.removeOldest();
            if (known.awaitingDecisions()) {
                pinned.put(oldest, new Pinned(known, pscBefore));
            } else {
                forgotten.add(oldest, pscBefore);
            }
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

    // ---- invariants ----

    /** A vote known for a transaction must agree with its decided outcome. */
    private static void checkVoteAgrees(Vote vote, Outcome outcome) {
        boolean agrees = outcome.committed()
                ? vote.commit() && vote.commitNumber() == outcome.versionAt(vote.partition())
                : true;
        if (!agrees) {
            throw new IllegalStateException(
                    "vote " + vote + " contradicts the decided outcome " + outcome + " (votes must never change)");
        }
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

    // ---- frontiers for the vector-of-snapshots service ----

    /**
     * This partition's frontier: {@code SC} and the dependency vector at it (for each other partition, the
     * highest number there of a global committed here at or below {@code SC}). Deterministic, O(partitions) and
     * never forgotten, so any replica may publish it, as often as it likes.
     */
    public Frontier frontier() {
        return new Frontier(partition, snapshotCounter, boxed(dependencies), boxed(cutFloor));
    }

    private static List<Long> boxed(long[] values) {
        List<Long> list = new ArrayList<>(values.length);
        for (long value : values) {
            list.add(value);
        }
        return list;
    }

    /** The newest cut of the chain this log holds; empty if none. */
    public long[] cutFloor() {
        return cutFloor.clone();
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

    void restorePending(Pending entry) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
    }

    void restoreCounters(ForgottenIds forgottenIds, long[] dependencyVector, long[] floor) {
        this.forgotten = forgottenIds;
        this.dependencies = dependencyVector.clone();
        this.cutFloor = floor.clone();
    }

    /** After a restore: the finished globals whose decision is not in the log yet are proposed again. */
    void restoreUnlogged() {
        decided.forEach((tid, known, pscBefore) -> trackRestored(known));
        pinned.values().forEach(pin -> trackRestored(pin.decided()));
    }

    private void trackRestored(Decided known) {
        if (known.finished() && known.global() && !known.loggedBy(partition)) {
            unlogged.put(known.outcome().tid(), new UnloggedDecision(new Decision(known.outcome(), partition), -1));
        }
    }
}
