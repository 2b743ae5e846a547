package dev.duro.consensus;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import dev.duro.core.engine.Vote;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.store.ScanResult;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition replica: a thin adapter between Ratis and the {@link PartitionEngine}.
 *
 * <p>It decodes each committed log entry (a batch of commands, {@link LogEntryDecoder}), delivers it to the engine
 * in log order and hands the resulting effects to the {@link EffectHandler}. Votes and ticks reach the engine from
 * the server's threads; one lock ({@link ReplicaEngine}) serialises every access to the engine, which is
 * single-threaded by design. All thinking is in the engine, where the simulation can reach it.
 *
 * <p>Snapshots hold the engine's whole replicated state ({@link EngineStateCodec}) at the last applied index;
 * Ratis takes them by its policy and purges the log behind them. The state is frozen under the lock and written by
 * a {@link SnapshotWriter} beside applying ({@link ReplicaSnapshots}). A replica restarted from a snapshot replays
 * the log after it and ends equal to its peers. A replica behind its leader's purged log copies the leader's newest
 * snapshot through the {@link SnapshotFetcher} ({@link #notifyInstallSnapshotFromLeader}, {@link SnapshotCatchUp})
 * and Ratis then reloads it.
 *
 * <h2>The designated voter</h2>
 *
 * <p>The engine's designated voter sends the partition's votes on delivery, proposes abort requests into silent
 * partitions' logs and logs decisions first. The rule: <b>a replica is the designated voter exactly while it is
 * the Raft leader and has applied every entry committed before its term began.</b> It is set when Ratis reports
 * the leader ready ({@link #notifyLeaderReady}: the leader's first entry of its term has been applied, and entries
 * apply in log order, so every entry it held when elected, which includes everything committed by earlier
 * leaders, has been delivered to the engine) and cleared as soon as leadership moves ({@link #notifyLeaderChanged},
 * {@link #notifyNotLeader}). Leadership alone is not enough: a new leader that was behind replays old entries for a
 * while, and each global it replays waits for votes its peers finished with long ago; as voter it would propose an
 * abort request for each into a log that may have forgotten the transaction, and a late abort request can only cost
 * liveness there (an {@code OUTCOME_UNKNOWN}, a retried commit aborted) for a transaction that is long decided. The
 * flag is local state and only affects liveness: any replica may be voter, or none, without breaking safety.
 */
public final class PartitionStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionStateMachine.class);
    private final int partition;
    private final LogEntryDecoder decoder;
    private final EffectHandler effects;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final SnapshotFolder folder;
    /** The engine, behind the lock that serialises every access to it. */
    private final ReplicaEngine engine;

    private final SnapshotWriter writer;
    private final ReplicaSnapshots snapshots;
    private final SnapshotCatchUp catchUp;

    /**
     * The node this replica belongs to, for the logging context ({@link LogContext}); known once Ratis
     * {@linkplain #initialize initializes} the replica, before it applies anything or starts a thread.
     */
    private volatile String node = "-";

    /** The term of each entry applied since the last restore, for this replica's appenders when it leads. */
    private final AppliedTerms appliedTerms = new AppliedTerms();

    /** How often Ratis told this replica of a new leader (metrics). */
    private final AtomicLong leaderChanges = new AtomicLong();

    public PartitionStateMachine(
            int partition, EngineSettings settings, Limits limits, EffectHandler effects, SnapshotFetcher fetcher) {
        this.partition = partition;
        this.decoder = new LogEntryDecoder(partition, limits);
        this.effects = effects;
        this.engine = new ReplicaEngine(new PartitionEngine(partition, settings));
        this.folder = new SnapshotFolder(partition, storage);
        this.catchUp = new SnapshotCatchUp(
                partition,
                fetcher,
                folder,
                this::appliedIndex,
                LogContext.daemonThreads("snapshot-fetch-p" + partition, this::node, partition));
        this.writer = new SnapshotWriter(
                partition,
                storage,
                engine::withEngine,
                LogContext.daemonThreads("snapshot-writer-p" + partition, this::node, partition));
        this.snapshots =
                new ReplicaSnapshots(partition, settings, new EngineStateCodec(limits), folder, engine, writer);
    }

    private String node() {
        return node;
    }

    public int partition() {
        return partition;
    }

    // ---- Ratis life cycle ----

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        node = server.getId().toString();
        // Ratis initializes every group of a node on one of its own threads: a scope, not the thread's for good.
        LogContext.Scope context = LogContext.partition(node, partition);
        try {
            super.initialize(server, groupId, raftStorage);
            storage.init(raftStorage);
            getLifeCycle()
                    .startAndTransition(
                            () -> {
                                SingleFileSnapshotInfo latest = storage.getLatestSnapshot();
                                snapshots.restore(latest, "at start-up", this::restoredTo);
                                if (latest != null) { // Ratis opens the log after this returns
                                    LogBehindSnapshot.dropIfBehind(
                                            partition,
                                            raftStorage,
                                            latest.getIndex(),
                                            RaftServerConfigKeys.Log.Appender.bufferByteLimit(server.getProperties()));
                                }
                            },
                            IOException.class);
        } finally {
            context.close();
        }
    }

    /**
     * Ratis pauses the state machine before a snapshot installed from the leader replaces its state, and then
     * insists that it is {@code PAUSED} before it calls {@link #reinitialize}; otherwise the group's applier
     * fails and the replica closes for good. So a follower that fell behind a purged log could never catch up.
     * A snapshot being written is abandoned first: the installed one replaces the folder it is written in.
     */
    @Override
    public void pause() {
        writer.pause();
        LifeCycle lifeCycle = getLifeCycle();
        if (lifeCycle.compareAndTransition(LifeCycle.State.RUNNING, LifeCycle.State.PAUSING)) {
            lifeCycle.transition(LifeCycle.State.PAUSED);
        }
    }

    /** Loads the latest snapshot (one just fetched from the leader) and resumes. */
    @Override
    public void reinitialize() throws IOException {
        LogContext.Scope context = LogContext.partition(node, partition);
        try {
            snapshots.restore(storage.loadLatestSnapshot(), "fetched from the leader", this::restoredTo);
            LifeCycle lifeCycle = getLifeCycle();
            if (lifeCycle.compareAndTransition(LifeCycle.State.PAUSED, LifeCycle.State.STARTING)) {
                lifeCycle.transition(LifeCycle.State.RUNNING);
            }
            writer.resume();
        } finally {
            catchUp.loaded();
            context.close();
        }
    }

    @Override
    public void close() throws IOException {
        catchUp.close();
        writer.close();
        super.close();
    }

    /**
     * The leader no longer has the log this replica needs next (it purged it behind a snapshot): copies the leader's
     * newest snapshot into this replica's folder and answers its position ({@link SnapshotCatchUp}). Ratis then
     * pauses this state machine and {@linkplain #reinitialize reloads} it from that snapshot, and the leader sends the
     * log after it. On failure (the leader moved, its snapshot was replaced, the connection broke) Ratis asks again
     * with the leader's next message.
     */
    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto role, TermIndex firstInLog) {
        String leaderNode = RaftPeerId.valueOf(
                        role.getFollowerInfo().getLeaderInfo().getId().getId())
                .toString();
        return catchUp.fetchFrom(leaderNode, firstInLog);
    }

    /** The newest complete snapshot of this replica, for a peer that fetches it. */
    public Optional<SnapshotFile> latestSnapshot() {
        return folder.newest();
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /** The state was replaced by a snapshot's, which ends at {@code last}. */
    private void restoredTo(TermIndex last) {
        appliedTerms.restart(last);
        setLastAppliedTermIndex(last);
    }

    /** Every applied entry (the state machine's own and Ratis's configuration entries) comes through here. */
    @Override
    protected boolean updateLastAppliedTermIndex(TermIndex applied) {
        appliedTerms.applied(applied);
        return super.updateLastAppliedTermIndex(applied);
    }

    /**
     * The term of the entry at {@code index} if this replica applied it since it last started or loaded a snapshot
     * (its appenders name a purged entry with it: {@link DuroLogAppender}); otherwise {@code null}.
     */
    @Nullable
    TermIndex appliedTermIndexOf(long index) {
        return appliedTerms.termIndexOf(index, appliedIndex());
    }

    /** The index of the last entry applied, -1 before any (a replica wiped or new). */
    private long appliedIndex() {
        TermIndex last = getLastAppliedTermIndex();
        return last == null ? -1 : last.getIndex();
    }

    /**
     * Ratis's request for a snapshot, on its applier thread after a batch. Answers the index of a snapshot written
     * since the last request, if any (Ratis then purges the log behind it); otherwise freezes the state now, if no
     * write is running, for the {@link SnapshotWriter} to write beside applying, and answers "none yet": Ratis asks
     * again after its next batch while the log is longer than its threshold.
     */
    @Override
    public long takeSnapshot() {
        LogContext.enter(node, partition); // the applier thread: see applyTransaction
        return snapshots.take(() -> {
            TermIndex last = getLastAppliedTermIndex();
            boolean nothing = last == null || last.getIndex() < 0 || getLifeCycleState() != LifeCycle.State.RUNNING;
            return nothing ? null : last;
        });
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId memberId, RaftPeerId newLeaderId) {
        leaderChanges.incrementAndGet();
        engine.leaderChanged(memberId.getPeerId().equals(newLeaderId));
    }

    /**
     * Ratis calls this on the applier thread once the leader's first entry of its term has been applied: this
     * replica has now delivered everything committed before it was elected. Checked against the division under
     * the lock, because leadership may have moved on since Ratis decided to call.
     */
    @Override
    public void notifyLeaderReady() {
        LogContext.enter(node, partition); // the applier thread: see applyTransaction
        engine.leaderReady(
                this::leaderReadyNow,
                () -> LOG.info(
                        "partition {}: leader applied the log up to {}; it is the designated voter",
                        partition,
                        getLastAppliedTermIndex()));
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        engine.notLeader();
    }

    private boolean leaderReadyNow() {
        try {
            return getServer().join().getDivision(getGroupId()).getInfo().isLeaderReady();
        } catch (IOException | RuntimeException e) {
            LOG.warn("partition {}: cannot tell whether this leader is ready: {}", partition, e.toString());
            return false;
        }
    }

    // ---- the log ----

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        // Ratis applies each group's log on a thread of that group's own, so the context is set for good (and is
        // all but free once it is).
        LogContext.enter(node, partition);
        LogEntryProto entry = transaction.getLogEntry();
        List<Command> commands = decoder.decode(entry);
        List<Effect> produced =
                engine.deliverAll(commands, () -> updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex()));
        effects.handle(partition, produced);
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    /**
     * Answers a read-only Raft request with this replica's {@code PSC}, the number of the newest transaction
     * delivered here. With the linearizable read option Ratis calls it after a ReadIndex round (on the leader, or
     * on a follower once it has applied up to the leader's commit index), so the answer covers every transaction
     * delivered before the request arrived: every one acknowledged to a client by then is among them, because a
     * transaction finishes only after its delivery at every participant. {@code SC} would not do: a replica that
     * still waits for a vote can be behind the coordinator that already acknowledged the transaction. {@code PSC}
     * is a function of the applied log alone, so every replica gives the same answer at the same index.
     */
    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(DeliveredCounterReply.of(engine.pendingSnapshotCounter()));
    }

    // ---- inputs from the server ----

    public void receiveVote(Vote vote) {
        effects.handle(partition, engine.receiveVote(vote));
    }

    public void tick(long nowMillis) {
        effects.handle(partition, engine.tick(nowMillis));
    }

    /**
     * How long the global at the head of this replica's pending queue has waited, in the clock {@link #tick} is
     * given, as of {@code nowMillis}; 0 if none waits.
     */
    public long headWaitingMillis(long nowMillis) {
        long since = engine.headWaitingSinceMillis();
        return since < 0 ? 0 : Math.max(0, nowMillis - since);
    }

    // ---- reads ----

    public long snapshotCounter() {
        return engine.snapshotCounter();
    }

    public long oldestReadableSnapshot() {
        return engine.oldestReadableSnapshot();
    }

    /** Reads at {@code snapshot}, which must not be above {@link #snapshotCounter()}. */
    public VersionedValue read(Bytes key, long snapshot) {
        return engine.read(key, snapshot);
    }

    /** The values of {@code keys} at {@code snapshot}, in their order, read under one acquisition of the lock. */
    public List<VersionedValue> readAll(List<Bytes> keys, long snapshot) {
        return engine.readAll(keys, snapshot);
    }

    /**
     * Scans {@code range} at {@code snapshot}, which must not be above {@link #snapshotCounter()}, under the lock like
     * {@link #read}: at most {@code limit} present keys, so the caller bounds how long the lock is held.
     */
    public ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        return engine.scan(range, limit, descending, snapshot);
    }

    /**
     * Completes (with SC) once this replica's SC reaches {@code snapshot}; the caller bounds the wait. A future not yet
     * complete is completed on the apply thread: continue it on another thread.
     */
    public CompletableFuture<Long> awaitSnapshot(long snapshot) {
        return engine.awaitSnapshot(snapshot);
    }

    /** Drops waiters that gave up (timed out), so a flood of reads cannot grow the map without bound. */
    public void purgeAbandonedWaiters() {
        engine.purgeAbandonedWaiters();
    }

    /** This replica's frontier ({@link PartitionEngine#frontier}): self-contained, publishable at any time. */
    public Frontier frontier() {
        return engine.frontier();
    }

    /** The outcome of a recently finished transaction at this replica, or null (unknown or no longer retained). */
    public @Nullable Outcome outcomeOf(TxId tid) {
        return engine.outcomeOf(tid);
    }

    /** How often this replica has heard of a new leader since it started. */
    public long leaderChanges() {
        return leaderChanges.get();
    }

    /** The newest snapshot this replica wrote itself: its size and how long writing it took, or null. */
    public @Nullable SnapshotWritten lastWritten() {
        return writer.lastWritten();
    }

    public int pendingCount() {
        return engine.pendingCount();
    }

    /** Digest of the readable content at SC; equal at replicas that applied the same log. */
    public long contentDigest() {
        return engine.contentDigest();
    }

    /** SC, the content digest at SC and the pending count, read together under one lock. */
    public record Status(long snapshotCounter, long contentDigest, int pendingCount) {}

    /** This replica's {@link Status}: one consistent reading, unlike separate calls under load. */
    public Status status() {
        return engine.status();
    }

    /** Whether this replica is the designated voter (class documentation). */
    public boolean isDesignatedVoter() {
        return engine.isDesignatedVoter();
    }

    /** Whether this replica is the Raft leader as last notified (it may not be the designated voter yet). */
    public boolean isLeader() {
        return engine.isLeader();
    }
}
