package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.certify.Certifier;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.store.MultiVersionStore;
import dev.duro.core.store.ScanResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
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
 * it commits iff all voted commit. Votes are exchanged, resent and, for a silent partition, replaced by an
 * {@link AbortRequest} in its log as {@link GlobalTermination} describes; whichever of the commit request and the
 * abort request a log delivers first fixes that partition's vote.
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
 *
 * <h2>Collaborators</h2>
 *
 * <p>This class keeps the public API, the certification flow and {@code PENDING} with its finishing, in delivery
 * order. Package-private collaborators own the rest: {@link OutcomeRetention} the retained, pinned and forgotten
 * outcomes; {@link GlobalTermination} the buffered votes, vote checks, unlogged decisions and what {@link #tick}
 * drives; {@link DependencyFrontier} the dependency vector and the cut floor; {@link EffectBuffer} the effects of
 * the input at hand. {@link EngineStateCodec} reads and writes all of it through the accessors below.
 *
 * <p>This class is longer than the ~350 lines its collaborators keep to, for a reason: besides the public API and
 * its documentation, every input (the four commands and the votes) acts on {@code PENDING}, its index and the order
 * in which it finishes. Moving part of that path out would have the pieces call back into each other and put
 * {@code PENDING} behind another indirection on the delivery path.
 */
public final class PartitionEngine {
    private final int partition;
    private final EngineSettings settings;
    private final MultiVersionStore store;
    private final Certifier certifier;
    private long snapshotCounter;

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Map<TxId, Pending> pendingByTid = new HashMap<>();
    private final EffectBuffer effects = new EffectBuffer();
    private final OutcomeRetention retention;
    private final GlobalTermination termination;
    private final DependencyFrontier frontiers;
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

    public PartitionEngine(int partition, EngineSettings settings) {
        this(partition, settings, new MultiVersionStore(), new Certifier(partition, settings.certification()), 0);
    }

    PartitionEngine(int partition, EngineSettings settings, MultiVersionStore store, Certifier certifier, long sc) {
        this.partition = partition;
        this.settings = settings;
        this.store = store;
        this.certifier = certifier;
        this.snapshotCounter = sc;
        this.retention = new OutcomeRetention(partition, settings.outcomesRetained());
        this.termination = new GlobalTermination(partition, settings, effects, retention);
        this.frontiers = new DependencyFrontier(partition);
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
        return termination.headWaitingSinceMillis();
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
            if (termination.isBuffered(entry.request.tid())) {
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
        if (retention.retainedCount() > settings.outcomesRetained()) {
            throw broken(retention.retainedCount() + " outcomes retained, at most " + settings.outcomesRetained());
        }
        if (termination.bufferedCount() > settings.bufferedVotesMax()) {
            throw broken(termination.bufferedCount() + " buffered votes, at most " + settings.bufferedVotesMax());
        }
        if (frontiers.ownEntry() > snapshotCounter) {
            throw broken("depends on number " + frontiers.ownEntry() + " here, above SC " + snapshotCounter);
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
        return retention.forgottenUpTo();
    }

    /** Globals kept beyond {@code outcomesRetained} until every participant's decision is delivered here. */
    public int pinnedCount() {
        return retention.pinnedCount();
    }

    /**
     * Reads {@code key} at {@code snapshot}, which must not be above {@link #snapshotCounter()}: the host waits
     * (or redirects) until this replica has caught up, never answering from an older snapshot.
     *
     * @throws dev.duro.core.SnapshotTooOldException if the snapshot was garbage-collected
     */
    public VersionedValue read(Bytes key, long snapshot) {
        if (snapshot > snapshotCounter) {
            throw new IllegalArgumentException("snapshot " + snapshot + " is above SC " + snapshotCounter);
        }
        return store.get(key, snapshot);
    }

    /**
     * Scans {@code range} at {@code snapshot}, which must not be above {@link #snapshotCounter()}, like {@link
     * #read}: the present keys in ascending or descending order, at most {@code limit}. A transaction that uses the
     * result certifies the range it observed ({@link ScanResult#observed}).
     *
     * @throws dev.duro.core.SnapshotTooOldException if the snapshot was garbage-collected
     */
    public ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        if (snapshot > snapshotCounter) {
            throw new IllegalArgumentException("snapshot " + snapshot + " is above SC " + snapshotCounter);
        }
        return store.scan(range, limit, descending, snapshot);
    }

    /** The outcome of a recently finished transaction, if still retained. */
    public @Nullable Outcome outcomeOf(TxId tid) {
        Decided known = retention.retained(tid);
        return known == null ? null : known.outcome();
    }

    // ---- state accessors for the codec ----

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
        return retention.decided();
    }

    LinkedHashMap<TxId, OutcomeRetention.Pinned> pinned() {
        return retention.pinned();
    }

    long[] dependencies() {
        return frontiers.dependencies();
    }

    ForgottenIds forgotten() {
        return retention.forgotten();
    }

    Map<TxId, Map<Integer, Vote>> bufferedVotes() {
        return termination.bufferedVotes();
    }

    // ---- inputs ----

    /**
     * Whether this replica sends the partition's votes on delivery, proposes abort requests and logs decisions
     * first. Local state: the host sets it on the Raft leader once it has applied the log it knows to be
     * committed, so a replica still replaying old entries never proposes an abort request for a transaction
     * its peers finished long ago.
     */
    public void setDesignatedVoter(boolean voter) {
        termination.setDesignatedVoter(voter);
    }

    /** Delivers the next command of this partition's log. */
    public List<Effect> deliver(Command command) {
        deliverOne(command);
        return effects.take();
    }

    /** Delivers every command of one log entry (a batch), in order. */
    public List<Effect> deliverAll(List<? extends Command> commands) {
        for (Command command : commands) {
            deliverOne(command);
        }
        return effects.take();
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
            frontiers.raiseCutFloor((CutAdvance) command);
        }
        retention.forgetOldOutcomes();
    }

    private void deliverCommit(CommitRequest request) {
        TxId tid = request.tid();
        Decided known = retention.retained(tid);
        if (known != null) {
            if (known.finished()) {
                effects.emit(new Effect.Reply(known.outcome())); // a retried commit: answer with the first outcome
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
        boolean global = request.isGlobal();
        List<KeyRange> ranges = mutantIgnoresRanges ? List.of() : request.scannedRanges();
        AbortReason reason = certifier.certify(snapshot, request.readSet(), request.writeSet(), ranges, global);
        long number = reason == null ? certifier.record(request.readSet(), request.writeSet(), ranges) : 0;
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
        Map<Integer, Vote> early = termination.takeBuffered(tid);
        Pending entry = new Pending(request, number, own, votes);
        if (early != null) {
            early.values().forEach(vote -> GlobalTermination.addVote(entry, vote));
        }
        enqueue(entry, pscBefore);
        if (termination.designatedVoter()) {
            effects.emit(new Effect.SendVote(own, others(request.participants())));
        }
    }

    private void deliverAbortRequest(AbortRequest request) {
        TxId tid = request.tid();
        Decided known = retention.retained(tid);
        if (known != null) {
            // The commit request came first and decided our vote; the requester just lacks it.
            Pending open = pendingByTid.get(tid);
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
        decide(aborted, tombstone, 0, List.of(partition), pendingSnapshotCounter());
        if (termination.designatedVoter()) {
            List<Integer> others = others(request.participants());
            effects.emit(new Effect.SendVote(tombstone, others));
            for (int other : others) {
                effects.emit(new Effect.ProposeDecision(new Decision(aborted, partition), other));
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
        termination.decisionLogged(tid);
        Pending open = pendingByTid.get(tid);
        if (open != null && open.votes != null) {
            open.votes.values().forEach(vote -> GlobalTermination.checkVoteAgrees(vote, outcome));
            open.decision = outcome;
        }
        boolean newlyLoggedHere = retention.recordLogged(tid, outcome, from);
        if (newlyLoggedHere && termination.designatedVoter()) {
            Decision ours = from == partition ? decision : new Decision(outcome, partition);
            for (int other : others(outcome.participants())) {
                effects.emit(new Effect.ProposeDecision(ours, other)); // {@code from} too: it learns this log has it
            }
        }
        finishReady();
    }

    /** A vote from another partition. Duplicates and votes for finished transactions are harmless. */
    public List<Effect> receiveVote(Vote vote) {
        if (vote.partition() != partition) {
            acceptVote(vote);
        }
        return effects.take();
    }

    private void acceptVote(Vote vote) {
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
                    && known.outcome().participants().contains(vote.partition())) {
                // The requester may wait for our logged decision to forget this transaction, or to finish it.
                effects.emit(new Effect.ProposeDecision(new Decision(known.outcome(), partition), vote.partition()));
            }
            return;
        }
        Pending open = pendingByTid.get(tid);
        if (open != null) {
            if (open.votes != null && open.request.participants().contains(vote.partition())) {
                GlobalTermination.addVote(open, vote);
                if (vote.replyWanted()) {
                    effects.emit(new Effect.SendVote(open.ownVote, List.of(vote.partition())));
                }
                finishReady();
            }
            return;
        }
        if (known != null) {
            return; // unfinished here but not pending: a request that reused an id (docs/window-safety.md)
        }
        termination.buffer(vote);
    }

    /**
     * Advances this replica's clock: logs decisions not yet seen in the log, retransmits votes and proposes abort
     * requests for a global transaction stuck at the head of {@code PENDING} ({@link GlobalTermination#tick}).
     * Never changes replicated state.
     */
    public List<Effect> tick(long nowMillis) {
        termination.tick(nowMillis, pending);
        return effects.take();
    }

    // ---- finishing ----

    private void enqueue(Pending entry, long pscBefore) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
        retention.add(
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
                    && GlobalTermination.missingVoters(head).isEmpty()) {
                finish(head, GlobalTermination.outcomeFromVotes(head));
            } else {
                return;
            }
        }
    }

    private void finish(Pending head, Outcome outcome) {
        pending.pollFirst();
        pendingByTid.remove(head.request.tid(), head);
        install(head.request, head.number, outcome);
        Vote ownVote = head.votes == null ? null : head.ownVote;
        if (head.votes != null) {
            GlobalTermination.checkVoteAgrees(head.ownVote, outcome);
        }
        boolean ownDecisionUnlogged = retention.recordFinished(head.request.tid(), head.number, outcome, ownVote);
        effects.emit(new Effect.Reply(outcome));
        if (ownDecisionUnlogged) {
            // finished from the votes, or from another participant's logged decision
            termination.trackUnlogged(outcome);
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
                frontiers.addDependencies(outcome);
            }
        }
        snapshotCounter = number;
        store.collectGarbage(snapshotCounter - settings.snapshotsRetained());
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
     * This partition's frontier: {@code SC} and the dependency vector at it (for each other partition, the
     * highest number there of a global committed here at or below {@code SC}). Deterministic, O(partitions) and
     * never forgotten, so any replica may publish it, as often as it likes.
     */
    public Frontier frontier() {
        return frontiers.frontier(snapshotCounter);
    }

    /** The newest cut of the chain this log holds; empty if none. */
    public long[] cutFloor() {
        return frontiers.cutFloor();
    }

    // ---- restore support ----

    void restorePending(Pending entry) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
    }

    void restoreCounters(ForgottenIds forgottenIds, long[] dependencyVector, long[] floor) {
        retention.restoreForgotten(forgottenIds);
        frontiers.restore(dependencyVector, floor);
    }

    /** After a restore: the finished globals whose decision is not in the log yet are proposed again. */
    void restoreUnlogged() {
        termination.restoreUnlogged();
    }
}
