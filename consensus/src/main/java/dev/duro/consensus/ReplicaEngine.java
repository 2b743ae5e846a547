package dev.duro.consensus;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import dev.duro.core.engine.Vote;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.store.ScanResult;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * One replica's {@link PartitionEngine} behind the replica's one lock, with what is kept beside it under that lock:
 * the frontier published from it, the readers waiting for its {@code SC}, and the leader and designated-voter flags
 * ({@link PartitionStateMachine}'s class documentation). Every access to the engine, from Ratis's applier and from
 * the server's threads, goes through here, since the engine is single-threaded by design.
 *
 * <p>It knows nothing of Ratis: the {@link PartitionStateMachine} decides what to deliver, restore or freeze and
 * when, and hands in what must change in the same critical section (Ratis's last applied index). It never calls the
 * {@link EffectHandler}: effects are returned, to be handled after the lock is released.
 */
final class ReplicaEngine {
    private final Object lock = new Object();

    @GuardedBy("lock")
    private PartitionEngine engine;

    /** Readers waiting for SC to reach a snapshot. */
    @GuardedBy("lock")
    private final TreeMap<Long, List<CompletableFuture<Long>>> snapshotWaiters = new TreeMap<>();

    /**
     * The engine's frontier as of its last change, refreshed under the lock wherever the engine delivers, receives a
     * vote or is replaced: the publishing thread reads it without the lock, so one replica taking a snapshot does
     * not hold up the frontiers of the node's other partitions. A frontier a moment old is still correct (they are
     * self-contained and only grow), just less fresh.
     */
    private volatile Frontier latestFrontier;

    /** Whether this replica is the Raft leader, as last notified; written under {@link #lock}. */
    private volatile boolean leader;
    /**
     * See {@link PartitionStateMachine}'s class documentation; written under {@link #lock}, read by the frontier
     * publisher without it.
     */
    private volatile boolean designatedVoter;

    ReplicaEngine(PartitionEngine engine) {
        this.engine = engine;
        this.latestFrontier = engine.frontier();
    }

    /** Runs {@code action} with the engine to itself. */
    void withEngine(Runnable action) {
        synchronized (lock) {
            action.run();
        }
    }

    /** What {@code action} computes from the engine, which it has to itself meanwhile. */
    <T> T fromEngine(Function<PartitionEngine, T> action) {
        synchronized (lock) {
            return action.apply(engine);
        }
    }

    // ---- changes ----

    /**
     * Delivers one log entry's {@code commands} and, in the same critical section, runs {@code applied} (which
     * records the entry as applied), so that a snapshot frozen under the lock holds exactly the entries applied.
     */
    List<Effect> deliverAll(List<Command> commands, Runnable applied) {
        List<Effect> produced;
        Released released;
        synchronized (lock) {
            produced = engine.deliverAll(commands);
            applied.run();
            released = afterChange(true);
        }
        released.complete();
        return produced;
    }

    List<Effect> receiveVote(Vote vote) {
        List<Effect> produced;
        Released released;
        synchronized (lock) {
            produced = engine.receiveVote(vote);
            released = afterChange(false);
        }
        released.complete();
        return produced;
    }

    List<Effect> tick(long nowMillis) {
        synchronized (lock) {
            return engine.tick(nowMillis);
        }
    }

    /**
     * Replaces the engine with {@code restored} (from a snapshot), which keeps this replica's designated-voter flag,
     * and runs {@code applied} (which records the snapshot's position as applied) in the same critical section.
     */
    void replace(PartitionEngine restored, Runnable applied) {
        Released released;
        synchronized (lock) {
            restored.setDesignatedVoter(designatedVoter);
            engine = restored;
            applied.run();
            released = afterChange(true);
        }
        released.complete();
    }

    /**
     * After the engine changed, under the lock: republishes its frontier if it can have moved, and takes out the
     * reads waiting for its counter, which the caller wakes once it has released the lock: whatever a woken read's
     * future runs next runs on the waking thread, so it must neither run under the lock nor hold up the next entry
     * (the server goes on on the connection's event loop). A log
     * entry may carry a cut advance, which moves the floor without moving SC; a vote moves the frontier only by
     * finishing transactions (the dependencies grow only with SC), so on a vote the frontier is rebuilt only when SC
     * moved.
     */
    @GuardedBy("lock")
    private Released afterChange(boolean logEntryApplied) {
        if (logEntryApplied || engine.snapshotCounter() != latestFrontier.snapshotCounter()) {
            latestFrontier = engine.frontier();
        }
        return takeReleasedWaiters();
    }

    @GuardedBy("lock")
    private Released takeReleasedWaiters() {
        long counter = engine.snapshotCounter();
        if (snapshotWaiters.isEmpty() || snapshotWaiters.firstKey() > counter) {
            return Released.NONE;
        }
        List<CompletableFuture<Long>> ready = new ArrayList<>();
        while (!snapshotWaiters.isEmpty() && snapshotWaiters.firstKey() <= counter) {
            ready.addAll(snapshotWaiters.pollFirstEntry().getValue());
        }
        return new Released(counter, ready);
    }

    /** Reads whose snapshot the counter reached, to be woken outside the lock. */
    private record Released(long counter, List<CompletableFuture<Long>> waiters) {
        static final Released NONE = new Released(0, List.of());

        void complete() {
            for (CompletableFuture<Long> waiter : waiters) {
                waiter.complete(counter);
            }
        }
    }

    // ---- leadership ----

    /** Ratis named a new leader, this replica ({@code isLeader}) or another. */
    void leaderChanged(boolean isLeader) {
        synchronized (lock) {
            leader = isLeader;
            if (!leader) {
                setDesignatedVoter(false);
            }
            // Becoming leader sets nothing yet: the voter waits for notifyLeaderReady (PartitionStateMachine's class
            // documentation).
        }
    }

    /**
     * Ratis reported the leader ready: makes this replica the designated voter if it is still the leader and
     * {@code readyNow} confirms it, checked under the lock because leadership may have moved on since Ratis decided
     * to call; then runs {@code announce}, still under the lock.
     */
    void leaderReady(BooleanSupplier readyNow, Runnable announce) {
        synchronized (lock) {
            if (leader && readyNow.getAsBoolean()) {
                setDesignatedVoter(true);
                announce.run();
            }
        }
    }

    /** Ratis told this replica that it is not the leader. */
    void notLeader() {
        synchronized (lock) {
            leader = false;
            setDesignatedVoter(false);
        }
    }

    @GuardedBy("lock")
    private void setDesignatedVoter(boolean voter) {
        designatedVoter = voter;
        engine.setDesignatedVoter(voter);
    }

    boolean isDesignatedVoter() {
        return designatedVoter;
    }

    boolean isLeader() {
        return leader;
    }

    // ---- reads ----

    /** {@code PSC}: the number of the newest transaction delivered here. */
    long pendingSnapshotCounter() {
        synchronized (lock) {
            return engine.pendingSnapshotCounter();
        }
    }

    long snapshotCounter() {
        synchronized (lock) {
            return engine.snapshotCounter();
        }
    }

    long oldestReadableSnapshot() {
        synchronized (lock) {
            return engine.oldestReadableSnapshot();
        }
    }

    long headWaitingSinceMillis() {
        synchronized (lock) {
            return engine.headWaitingSinceMillis();
        }
    }

    VersionedValue read(Bytes key, long snapshot) {
        synchronized (lock) {
            return engine.read(key, snapshot);
        }
    }

    /** The values of {@code keys} at {@code snapshot}, in their order, read under one acquisition of the lock. */
    List<VersionedValue> readAll(List<Bytes> keys, long snapshot) {
        List<VersionedValue> values = new ArrayList<>(keys.size());
        synchronized (lock) {
            for (Bytes key : keys) {
                values.add(engine.read(key, snapshot));
            }
        }
        return values;
    }

    ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        synchronized (lock) {
            return engine.scan(range, limit, descending, snapshot);
        }
    }

    CompletableFuture<Long> awaitSnapshot(long snapshot) {
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

    void purgeAbandonedWaiters() {
        synchronized (lock) {
            snapshotWaiters.values().removeIf(list -> {
                list.removeIf(CompletableFuture::isDone);
                return list.isEmpty();
            });
        }
    }

    Frontier frontier() {
        return latestFrontier;
    }

    @Nullable
    Outcome outcomeOf(TxId tid) {
        synchronized (lock) {
            return engine.outcomeOf(tid);
        }
    }

    int pendingCount() {
        synchronized (lock) {
            return engine.pendingCount();
        }
    }

    long contentDigest() {
        synchronized (lock) {
            return EngineStateCodec.contentDigest(engine);
        }
    }

    PartitionStateMachine.Status status() {
        synchronized (lock) {
            return new PartitionStateMachine.Status(
                    engine.snapshotCounter(), EngineStateCodec.contentDigest(engine), engine.pendingCount());
        }
    }
}
