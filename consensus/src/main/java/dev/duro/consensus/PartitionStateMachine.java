package dev.duro.consensus;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import dev.duro.core.engine.Vote;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.store.ScanResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition replica: a thin adapter between Ratis and the {@link PartitionEngine}.
 *
 * <p>It decodes each committed log entry (a batch of commands), delivers it to the engine in log order and
 * hands the resulting effects to the {@link EffectHandler}. Votes and ticks reach the engine from the server's
 * threads; one lock serialises every access to the engine, which is single-threaded by design. All thinking
 * is in the engine, where the simulation can reach it.
 *
 * <p>Snapshots hold the engine's whole replicated state ({@link EngineStateCodec}) at the last applied index;
 * Ratis takes them by its policy and purges the log behind them. The state is frozen under the lock and written by
 * a {@link SnapshotWriter} beside applying. A replica restarted from a snapshot replays the log after it and ends
 * equal to its peers. A replica behind its leader's purged log copies the leader's newest snapshot through the
 * {@link SnapshotFetcher} ({@link #notifyInstallSnapshotFromLeader}) and Ratis then reloads it.
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
    private final EngineSettings settings;
    private final EngineStateCodec stateCodec;
    private final CommandBatches batches;
    private final EffectHandler effects;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final SnapshotFolder folder;
    private final Object lock = new Object();
    private final SnapshotWriter snapshots;
    private final SnapshotFetcher fetcher;
    /** Runs snapshot fetches, one at a time; Ratis asks for another only once one has finished. */
    private final ExecutorService fetches;

    /**
     * The node this replica belongs to, for the logging context ({@link LogContext}); known once Ratis
     * {@linkplain #initialize initializes} the replica, before it applies anything or starts a thread.
     */
    private volatile String node = "-";

    /** Guarded by {@link #lock}. */
    private PartitionEngine engine;

    /**
     * The engine's frontier as of its last change, refreshed under the lock wherever the engine delivers, receives a
     * vote or is replaced: the publishing thread reads it without the lock, so one replica taking a snapshot does
     * not hold up the frontiers of the node's other partitions. A frontier a moment old is still correct (they are
     * self-contained and only grow), just less fresh.
     */
    private volatile Frontier latestFrontier;

    /** Readers waiting for SC to reach a snapshot; guarded by {@link #lock}. */
    private final TreeMap<Long, List<CompletableFuture<Long>>> snapshotWaiters = new TreeMap<>();

    /** How often Ratis told this replica of a new leader (metrics). */
    private final AtomicLong leaderChanges = new AtomicLong();

    /**
     * Completes once the snapshot this replica fetched last has been loaded ({@link #reinitialize}); the next fetch
     * waits for it: see {@link #notifyInstallSnapshotFromLeader}.
     */
    private volatile CompletableFuture<Void> lastFetchLoaded = CompletableFuture.completedFuture(null);

    /** Whether this replica is the Raft leader, as last notified; written under {@link #lock}. */
    private volatile boolean leader;
    /** See the class documentation; written under {@link #lock}, read by the frontier publisher without it. */
    private volatile boolean designatedVoter;

    public PartitionStateMachine(
            int partition, EngineSettings settings, Limits limits, EffectHandler effects, SnapshotFetcher fetcher) {
        this.partition = partition;
        this.fetcher = fetcher;
        this.fetches = Executors.newSingleThreadExecutor(
                LogContext.daemonThreads("snapshot-fetch-p" + partition, this::node, partition));
        this.settings = settings;
        this.stateCodec = new EngineStateCodec(limits);
        this.batches = new CommandBatches(limits);
        this.effects = effects;
        this.engine = new PartitionEngine(partition, settings);
        this.folder = new SnapshotFolder(partition, storage);
        this.latestFrontier = engine.frontier();
        this.snapshots = new SnapshotWriter(
                partition,
                storage,
                this::withEngine,
                LogContext.daemonThreads("snapshot-writer-p" + partition, this::node, partition));
    }

    private String node() {
        return node;
    }

    /** Runs {@code action} with the engine to itself. */
    private void withEngine(Runnable action) {
        synchronized (lock) {
            action.run();
        }
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
                            () -> loadSnapshot(storage.getLatestSnapshot(), "at start-up"), IOException.class);
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
        snapshots.pause();
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
            loadSnapshot(storage.loadLatestSnapshot(), "fetched from the leader");
            LifeCycle lifeCycle = getLifeCycle();
            if (lifeCycle.compareAndTransition(LifeCycle.State.PAUSED, LifeCycle.State.STARTING)) {
                lifeCycle.transition(LifeCycle.State.RUNNING);
            }
            snapshots.resume();
        } finally {
            lastFetchLoaded.complete(null);
            context.close();
        }
    }

    @Override
    public void close() throws IOException {
        fetches.shutdownNow();
        snapshots.close();
        super.close();
    }

    /**
     * The leader no longer has the log this replica needs next (it purged it behind a snapshot): copies the leader's
     * newest snapshot into this replica's folder and answers its position. Ratis then pauses this state machine and
     * {@linkplain #reinitialize reloads} it from that snapshot, and the leader sends the log after it. On failure
     * (the leader moved, its snapshot was replaced, the connection broke) Ratis asks again with the leader's next
     * message.
     *
     * <p>While a snapshot fetched before is still being loaded, the next fetch waits until it is. Ratis asks as soon
     * as it has requested the reload, and a second answer while the first reload runs is lost: its reload request is
     * overwritten when the first one ends, yet the log already starts after the second snapshot, so the replica
     * stayed at the first one's index and never applied another entry (seen with snapshots of 65 MB taking 3.5 s to
     * load, docs/replication.md). Ratis asks again only after an answer or a failure, and reloads a fetched snapshot
     * before it asks again, so the wait always ends.
     */
    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto role, TermIndex firstInLog) {
        String leaderNode = RaftPeerId.valueOf(
                        role.getFollowerInfo().getLeaderInfo().getId().getId())
                .toString();
        long indexMin = Math.max(0, firstInLog.getIndex() - 1);
        return lastFetchLoaded.thenApplyAsync(
                loaded -> {
                    try {
                        TermIndex fetched = fetchSnapshot(leaderNode, indexMin);
                        lastFetchLoaded = new CompletableFuture<>(); // before Ratis can learn of it and reload
                        return fetched;
                    } catch (IOException e) {
                        LOG.warn(
                                "partition {}: fetching a snapshot at or after index {} from {} failed: {}",
                                partition,
                                indexMin,
                                leaderNode,
                                e.toString());
                        throw new UncheckedIOException(e);
                    }
                },
                fetches);
    }

    private TermIndex fetchSnapshot(String node, long indexMin) throws IOException {
        long startNanos = System.nanoTime();
        LOG.info(
                "partition {}: behind {}'s log; fetching its snapshot at or after index {}", partition, node, indexMin);
        SnapshotFile fetched = fetcher.fetch(node, partition, indexMin, folder.fetchingFile());
        TermIndex installed = folder.install(fetched, indexMin);
        LOG.info(
                "partition {}: fetched {}'s snapshot at (t:{}, i:{}): {} bytes in {} ms",
                partition,
                node,
                fetched.term(),
                fetched.index(),
                fetched.bytes(),
                (System.nanoTime() - startNanos) / 1_000_000);
        return installed;
    }

    /** The newest complete snapshot of this replica, for a peer that fetches it. */
    public Optional<SnapshotFile> latestSnapshot() {
        return folder.newest();
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /**
     * Replaces the engine with the one in {@code snapshot}. The whole file is read into memory and decoded
     * there, so a replica needs about twice its state's size in heap while it loads one.
     */
    private void loadSnapshot(SingleFileSnapshotInfo snapshot, String source) throws IOException {
        if (snapshot == null) {
            return;
        }
        long startNanos = System.nanoTime();
        Path file = snapshot.getFile().getPath();
        byte[] state = folder.readVerified(snapshot);
        PartitionEngine restored;
        try {
            restored = stateCodec.read(state, partition, settings);
        } catch (RuntimeException e) {
            throw new IOException(
                    "partition " + partition + " snapshot " + file + " cannot be decoded: " + e.getMessage(), e);
        }
        synchronized (lock) {
            restored.setDesignatedVoter(designatedVoter);
            engine = restored;
            setLastAppliedTermIndex(snapshot.getTermIndex());
            afterChange(true);
        }
        snapshots.raiseFloor(snapshot.getIndex());
        LOG.info(
                "partition {} restored from snapshot at {} (SC {}, {} bytes, loaded in {} ms), {}",
                partition,
                snapshot.getTermIndex(),
                restored.snapshotCounter(),
                state.length,
                (System.nanoTime() - startNanos) / 1_000_000,
                source);
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
        long finished = snapshots.takeFinished();
        if (finished != SnapshotWriter.NONE) {
            return finished;
        }
        snapshots.startIfIdle(() -> {
            synchronized (lock) {
                TermIndex last = getLastAppliedTermIndex();
                if (last == null || last.getIndex() < 0 || getLifeCycleState() != LifeCycle.State.RUNNING) {
                    return null;
                }
                long startNanos = System.nanoTime();
                EngineStateCodec.Frozen frozen = stateCodec.freeze(engine);
                return new SnapshotWriter.Job(last, frozen, System.nanoTime() - startNanos);
            }
        });
        return SnapshotWriter.NONE;
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId memberId, RaftPeerId newLeaderId) {
        leaderChanges.incrementAndGet();
        synchronized (lock) {
            leader = memberId.getPeerId().equals(newLeaderId);
            if (!leader) {
                setDesignatedVoter(false);
            }
            // Becoming leader sets nothing yet: the voter waits for notifyLeaderReady (class documentation).
        }
    }

    /**
     * Ratis calls this on the applier thread once the leader's first entry of its term has been applied: this
     * replica has now delivered everything committed before it was elected. Checked against the division under
     * the lock, because leadership may have moved on since Ratis decided to call.
     */
    @Override
    public void notifyLeaderReady() {
        LogContext.enter(node, partition); // the applier thread: see applyTransaction
        synchronized (lock) {
            if (leader && leaderReadyNow()) {
                setDesignatedVoter(true);
                LOG.info(
                        "partition {}: leader applied the log up to {}; it is the designated voter",
                        partition,
                        getLastAppliedTermIndex());
            }
        }
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        synchronized (lock) {
            leader = false;
            setDesignatedVoter(false);
        }
    }

    /** Must hold {@link #lock}. */
    private void setDesignatedVoter(boolean voter) {
        designatedVoter = voter;
        engine.setDesignatedVoter(voter);
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
        List<Command> commands = decode(entry);
        List<Effect> produced;
        synchronized (lock) {
            produced = engine.deliverAll(commands);
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            afterChange(true);
        }
        effects.handle(partition, produced);
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    /**
     * Decodes an entry (commit requests, abort requests and decisions), keeping only commands addressed to this
     * partition. The same bytes give the same result at every replica, so skipping a bad entry (which the server
     * never proposes) keeps replicas identical. An entry of a newer log format is not skipped: the decoder's
     * {@code UnsupportedVersionException} stops this replica, since replicas of the newer release would apply it.
     */
    private List<Command> decode(LogEntryProto entry) {
        try {
            List<Command> decoded =
                    batches.decode(entry.getStateMachineLogEntry().getLogData().toByteArray());
            List<Command> ours = new ArrayList<>(decoded.size());
            for (Command command : decoded) {
                if (command.participants().contains(partition)) {
                    ours.add(command);
                } else {
                    LOG.warn("partition {} skips a command for other partitions: {}", partition, command.tid());
                }
            }
            return ours;
        } catch (MalformedInputException e) {
            LOG.warn("partition {} skips malformed log entry {}: {}", partition, entry.getIndex(), e.getMessage());
            return List.of();
        }
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
        long counter;
        synchronized (lock) {
            counter = engine.pendingSnapshotCounter();
        }
        byte[] bytes = ByteBuffer.allocate(Long.BYTES).putLong(counter).array();
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(bytes)));
    }

    /** Decodes {@link #query}'s answer. */
    public static long deliveredCounterOf(Message reply) {
        byte[] bytes = reply.getContent().toByteArray();
        if (bytes.length != Long.BYTES) {
            throw new IllegalArgumentException("not a delivered-counter reply: " + bytes.length + " bytes");
        }
        return ByteBuffer.wrap(bytes).getLong();
    }

    // ---- inputs from the server ----

    public void receiveVote(Vote vote) {
        List<Effect> produced;
        synchronized (lock) {
            produced = engine.receiveVote(vote);
            afterChange(false);
        }
        effects.handle(partition, produced);
    }

    public void tick(long nowMillis) {
        List<Effect> produced;
        synchronized (lock) {
            produced = engine.tick(nowMillis);
        }
        effects.handle(partition, produced);
    }

    /**
     * How long the global at the head of this replica's pending queue has waited, in the clock {@link #tick} is
     * given, as of {@code nowMillis}; 0 if none waits.
     */
    public long headWaitingMillis(long nowMillis) {
        long since;
        synchronized (lock) {
            since = engine.headWaitingSinceMillis();
        }
        return since < 0 ? 0 : Math.max(0, nowMillis - since);
    }

    // ---- reads ----

    public long snapshotCounter() {
        synchronized (lock) {
            return engine.snapshotCounter();
        }
    }

    public long oldestReadableSnapshot() {
        synchronized (lock) {
            return engine.oldestReadableSnapshot();
        }
    }

    /** Reads at {@code snapshot}, which must not be above {@link #snapshotCounter()}. */
    public VersionedValue read(Bytes key, long snapshot) {
        synchronized (lock) {
            return engine.read(key, snapshot);
        }
    }

    /** The values of {@code keys} at {@code snapshot}, in their order, read under one acquisition of the lock. */
    public List<VersionedValue> readAll(List<Bytes> keys, long snapshot) {
        List<VersionedValue> values = new ArrayList<>(keys.size());
        synchronized (lock) {
            for (Bytes key : keys) {
                values.add(engine.read(key, snapshot));
            }
        }
        return values;
    }

    /**
     * Scans {@code range} at {@code snapshot}, which must not be above {@link #snapshotCounter()}, under the lock like
     * {@link #read}: at most {@code limit} present keys, so the caller bounds how long the lock is held.
     */
    public ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        synchronized (lock) {
            return engine.scan(range, limit, descending, snapshot);
        }
    }

    /** Completes (with SC) once this replica's SC reaches {@code snapshot}; the caller bounds the wait. */
    public CompletableFuture<Long> awaitSnapshot(long snapshot) {
        synchronized (lock) {
            long counter = engine.snapshotCounter();
            if (counter >= snapshot) {
                return CompletableFuture.completedFuture(counter);
            }
            CompletableFuture<Long> waiter = new CompletableFuture<>();
            snapshotWaiters.computeIfAbsent(snapshot, s -> new ArrayList<>(2)).add(waiter);
            return waiter;
        }
    }

    /**
     * After the engine changed, under the lock: republishes its frontier if it can have moved, and wakes the reads
     * waiting for its counter. A log entry may carry a cut advance, which moves the floor without moving SC; a vote
     * moves the frontier only by finishing transactions (the dependencies grow only with SC), so on a vote the
     * frontier is rebuilt only when SC moved.
     */
    private void afterChange(boolean logEntryApplied) {
        if (logEntryApplied || engine.snapshotCounter() != latestFrontier.snapshotCounter()) {
            latestFrontier = engine.frontier();
        }
        releaseSnapshotWaiters();
    }

    /** Must hold {@link #lock}. */
    private void releaseSnapshotWaiters() {
        long counter = engine.snapshotCounter();
        while (!snapshotWaiters.isEmpty() && snapshotWaiters.firstKey() <= counter) {
            Map.Entry<Long, List<CompletableFuture<Long>>> ready = snapshotWaiters.pollFirstEntry();
            for (CompletableFuture<Long> waiter : ready.getValue()) {
                waiter.complete(counter);
            }
        }
    }

    /** Drops waiters that gave up (timed out), so a flood of reads cannot grow the map without bound. */
    public void purgeAbandonedWaiters() {
        synchronized (lock) {
            snapshotWaiters.values().removeIf(list -> {
                list.removeIf(CompletableFuture::isDone);
                return list.isEmpty();
            });
        }
    }

    /** This replica's frontier ({@link PartitionEngine#frontier}): self-contained, publishable at any time. */
    public Frontier frontier() {
        return latestFrontier;
    }

    /** The outcome of a recently finished transaction at this replica, or null (unknown or no longer retained). */
    public Outcome outcomeOf(TxId tid) {
        synchronized (lock) {
            return engine.outcomeOf(tid);
        }
    }

    /** How often this replica has heard of a new leader since it started. */
    public long leaderChanges() {
        return leaderChanges.get();
    }

    /** The newest snapshot this replica wrote itself: its size and how long writing it took, or null. */
    public @Nullable SnapshotWritten lastWritten() {
        return snapshots.lastWritten();
    }

    public int pendingCount() {
        synchronized (lock) {
            return engine.pendingCount();
        }
    }

    /** Digest of the readable content at SC; equal at replicas that applied the same log. */
    public long contentDigest() {
        synchronized (lock) {
            return EngineStateCodec.contentDigest(engine);
        }
    }

    /** SC, the content digest at SC and the pending count, read together under one lock. */
    public record Status(long snapshotCounter, long contentDigest, int pendingCount) {}

    /** This replica's {@link Status}: one consistent reading, unlike separate calls under load. */
    public Status status() {
        synchronized (lock) {
            return new Status(engine.snapshotCounter(), EngineStateCodec.contentDigest(engine), engine.pendingCount());
        }
    }

    /** Whether this replica is the designated voter (class documentation). */
    public boolean isDesignatedVoter() {
        return designatedVoter;
    }

    /** Whether this replica is the Raft leader as last notified (it may not be the designated voter yet). */
    public boolean isLeader() {
        return leader;
    }
}
