package dev.duro.core.engine;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.certify.Certifier;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.store.MultiVersionStore;
import dev.duro.core.store.ScanResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * <p>This class keeps the public API and hands each input to the package-private collaborator that owns it:
 *
 * <ul>
 *   <li>{@link LogDelivery}: the certification flow, each delivered command in log order;
 *   <li>{@link VoteTracker}: the votes of other partitions and the delivered decisions;
 *   <li>{@link PendingQueue}: {@code PENDING}, {@code SC} and finishing in delivery order;
 *   <li>{@link GlobalTermination}: the buffered votes, vote checks, the designated voter and what {@link #tick}
 *       drives, with {@link UnloggedDecisions};
 *   <li>{@link OutcomeRetention}: the retained, pinned and forgotten outcomes;
 *   <li>{@link DependencyFrontier}: the dependency vector and the cut floor;
 *   <li>{@link EffectBuffer}: the effects of the input at hand.
 * </ul>
 *
 * <p>They call one another in one direction only (delivery, then votes, then {@code PENDING}, then termination and
 * retention). {@link EngineStateCodec} reads and writes all of it through the accessors below.
 */
public final class PartitionEngine {
    private final int partition;
    private final EngineSettings settings;
    private final MultiVersionStore store;
    private final Certifier certifier;
    private final EffectBuffer effects = new EffectBuffer();
    private final OutcomeRetention retention;
    private final GlobalTermination termination;
    private final DependencyFrontier frontiers;
    private final PendingQueue pending;
    private final VoteTracker votes;
    private final LogDelivery delivery;

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

        /** The votes of a global transaction (a local one has none). */
        Map<Integer, Vote> globalVotes() {
            return Objects.requireNonNull(votes, "a global transaction's votes");
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
        this.retention = new OutcomeRetention(partition, settings.outcomesRetained());
        this.termination = new GlobalTermination(partition, settings, effects, retention);
        this.frontiers = new DependencyFrontier(partition);
        this.pending =
                new PendingQueue(partition, settings, store, certifier, effects, retention, termination, frontiers, sc);
        this.votes = new VoteTracker(partition, pending, effects, retention, termination);
        this.delivery = new LogDelivery(
                partition, certifier, pending, votes, effects, retention, termination, frontiers, store::intern);
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
        return pending.snapshotCounter();
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
        pending.checkInvariants(certifier.pendingSnapshotCounter());
        if (retention.retainedCount() > settings.outcomesRetained()) {
            throw pending.broken(
                    retention.retainedCount() + " outcomes retained, at most " + settings.outcomesRetained());
        }
        if (termination.bufferedCount() > settings.bufferedVotesMax()) {
            throw pending.broken(
                    termination.bufferedCount() + " buffered votes, at most " + settings.bufferedVotesMax());
        }
        if (frontiers.ownEntry() > pending.snapshotCounter()) {
            throw pending.broken(
                    "depends on number " + frontiers.ownEntry() + " here, above SC " + pending.snapshotCounter());
        }
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
        long snapshotCounter = pending.snapshotCounter();
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
        long snapshotCounter = pending.snapshotCounter();
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
        return pending.entries();
    }

    boolean isPending(TxId tid) {
        return pending.contains(tid);
    }

    /** The retained, pinned and forgotten outcomes. */
    OutcomeRetention retention() {
        return retention;
    }

    /** The dependency vector and the cut floor. */
    DependencyFrontier frontiers() {
        return frontiers;
    }

    Map<TxId, Map<Integer, Vote>> bufferedVotes() {
        return termination.bufferedVotes();
    }

    /** The delivery flow, whose mutant seams the simulation sets ({@code EngineMutants}). */
    LogDelivery delivery() {
        return delivery;
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
        delivery.deliver(command);
        return effects.take();
    }

    /** Delivers every command of one log entry (a batch), in order. */
    public List<Effect> deliverAll(List<? extends Command> commands) {
        for (Command command : commands) {
            delivery.deliver(command);
        }
        return effects.take();
    }

    /** A vote from another partition. Duplicates and votes for finished transactions are harmless. */
    public List<Effect> receiveVote(Vote vote) {
        if (vote.partition() != partition) {
            votes.acceptVote(vote);
        }
        return effects.take();
    }

    /**
     * Advances this replica's clock: logs decisions not yet seen in the log, retransmits votes and proposes abort
     * requests for a global transaction stuck at the head of {@code PENDING} ({@link GlobalTermination#tick}).
     * Never changes replicated state.
     */
    public List<Effect> tick(long nowMillis) {
        termination.tick(nowMillis, pending.entries());
        return effects.take();
    }

    // ---- frontiers for the vector-of-snapshots service ----

    /**
     * This partition's frontier: {@code SC} and the dependency vector at it (for each other partition, the
     * highest number there of a global committed here at or below {@code SC}). Deterministic, O(partitions) and
     * never forgotten, so any replica may publish it, as often as it likes.
     */
    public Frontier frontier() {
        return frontiers.frontier(pending.snapshotCounter());
    }

    /** The newest cut of the chain this log holds; empty if none. */
    public long[] cutFloor() {
        return frontiers.cutFloor();
    }

    // ---- restore support ----

    void restorePending(Pending entry) {
        pending.restore(entry);
    }

    /** After a restore: the finished globals whose decision is not in the log yet are proposed again. */
    void restoreUnlogged() {
        termination.restoreUnlogged();
    }
}
