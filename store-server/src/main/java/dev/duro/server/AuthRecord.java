package dev.duro.server;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Bytes;
import dev.duro.core.VersionedValue;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.auth.AdminCommands;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.AuthTableCodec;
import dev.duro.server.tls.NodeTls;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's copy of the cluster's auth record ({@link AuthTable#KEY}), and the way in for its changes
 * (docs/auth.md, "Where the rules live").
 *
 * <p><b>Reading.</b> The record is read at a linearizable snapshot of its partition: a Raft ReadIndex gives the
 * counter delivered there as of now, the local replica waits until its {@code SC} reaches it, and the key is read
 * at {@code SC}. So a refresh sees every change acknowledged before it began, whichever node made it, and a node
 * that restarts never serves under a table older than one it could have seen. A node that holds no replica of the
 * record's partition asks one that does ({@code auth-table} admin request), which reads the same way. The copy
 * is refreshed every {@code auth.refresh-millis} and at once after a change this node made; a change made
 * elsewhere is enforced here within one refresh period (plus the read's own duration).
 *
 * <p><b>Writing.</b> A change is a read-modify-write of the key in an ordinary transaction, coordinated by this
 * node ({@link AuthRecordChanges}); no change is ever lost to another.
 *
 * <p>Installed tables only move forward: each carries the version of the key it was read at, and an older one
 * (a slow refresh overtaken by a change) is dropped.
 */
final class AuthRecord {
    private static final Logger LOG = LoggerFactory.getLogger(AuthRecord.class);

    /** How often the node calls {@link #tick}. */
    static final long TICK_MILLIS = 50;

    private final ConsensusNode consensus;
    private final int partition;
    private final Duration waitMax;
    private final Executor blocking;
    private final AuthRecordPeers peers;
    private final AuthRecordChanges changes;

    /** The table and the version of the key it was read at (0: the key was never written). */
    record Versioned(AuthTable table, long version) {}

    private volatile @Nullable Versioned current;
    private final AtomicBoolean reading = new AtomicBoolean();
    /** The read {@link #refreshNow} callers share. */
    @GuardedBy("this")
    private @Nullable CompletableFuture<AuthTable> sharedRead;
    /** Only touched by the thread that calls {@link #tick}. */
    private long lastReadStartedMillis;

    private final CompletableFuture<AuthTable> firstLoad = new CompletableFuture<>();

    /**
     * @param partition the partition holding {@link AuthTable#KEY}
     * @param replicaNodes the nodes replicating it, asked in turn when this node holds no replica of it
     * @param blocking runs the remote reads, which block on a socket
     */
    AuthRecord(
            ConsensusNode consensus,
            Coordinator coordinator,
            WireCodec codec,
            Map<String, ServerConfig.Node> nodes,
            int partition,
            List<String> replicaNodes,
            Duration waitMax,
            int frameBytesMax,
            Executor blocking,
            @Nullable NodeTls tls) {
        this.consensus = consensus;
        this.partition = partition;
        this.waitMax = waitMax;
        this.blocking = blocking;
        this.peers = new AuthRecordPeers(
                consensus.nodeId(), partition, replicaNodes, codec, nodes, tls, waitMax, frameBytesMax);
        this.changes = new AuthRecordChanges(consensus, coordinator, partition, replicaNodes, waitMax, this::install);
    }

    int partition() {
        return partition;
    }

    /** The table this node enforces, or null before the first read succeeded. */
    @Nullable
    AuthTable current() {
        Versioned installed = current;
        return installed == null ? null : installed.table();
    }

    /** Completes with the first table read; requests wait on it (boundedly) at start-up. */
    CompletableFuture<AuthTable> firstLoad() {
        return firstLoad;
    }

    /**
     * Called often (every {@link #TICK_MILLIS}): reads the record again when {@code refreshMillis} passed since
     * the last read began, or at every tick until a first read succeeded (a starting node serves nothing before).
     * One read at a time; a failed one leaves the current table and is retried.
     */
    void tick(long nowMillis, long refreshMillis) {
        if (current != null && nowMillis - lastReadStartedMillis < refreshMillis) {
            return;
        }
        if (!reading.compareAndSet(false, true)) {
            return;
        }
        lastReadStartedMillis = nowMillis;
        CompletableFuture<Versioned> read;
        try {
            read = readFresh();
        } catch (RuntimeException e) {
            reading.set(false);
            throw e;
        }
        read.whenComplete((table, failure) -> {
            reading.set(false);
            if (failure != null) {
                LOG.debug("auth record refresh failed: {}", failure.toString());
            } else {
                install(table);
            }
        });
    }

    /**
     * Reads the record now and installs it; completes with the table installed after it. Calls while a read is in
     * flight share it, so refused logins cannot multiply the reads.
     */
    synchronized CompletableFuture<AuthTable> refreshNow() {
        if (sharedRead == null || sharedRead.isDone()) {
            sharedRead = readFresh().thenApply(read -> {
                install(read);
                return current();
            });
        }
        return sharedRead;
    }

    private void install(Versioned read) {
        synchronized (this) {
            Versioned installed = current;
            if (installed != null && installed.version() > read.version()) {
                return;
            }
            if (installed == null || installed.table().enabled() != read.table().enabled()) {
                LOG.info(
                        "auth is {} (auth record at version {})",
                        read.table().enabled() ? "enabled" : "disabled",
                        read.version());
            }
            current = read;
        }
        firstLoad.complete(read.table());
    }

    /**
     * The record at a linearizable snapshot: from the local replica; without one, or when it cannot reach that
     * snapshot within {@code server.read-wait-millis-max} (it is catching up, perhaps for minutes after a restart
     * under load, and meanwhile the node would serve nothing), from another replica of the record's partition.
     */
    CompletableFuture<Versioned> readFresh() {
        PartitionStateMachine replica = consensus.replica(partition);
        if (replica == null) {
            return CompletableFuture.supplyAsync(peers::read, blocking);
        }
        return readLocally(replica).exceptionallyCompose(local -> CompletableFuture.supplyAsync(peers::read, blocking));
    }

    /**
     * The record at a linearizable snapshot of the local replica only: what this node answers another that asks
     * ({@code auth-table}), so two nodes that are both behind never ask each other in a loop.
     */
    private CompletableFuture<Versioned> readLocally(PartitionStateMachine replica) {
        return readLinearizably(consensus, replica, partition, waitMax)
                .thenApply(read ->
                        new Versioned(decode(read.value().value()), read.value().version()));
    }

    /** The record's key as a linearizable read of {@code replica} finds it, and the snapshot it was read at. */
    record LinearizableRead(VersionedValue value, long snapshot) {}

    /**
     * Reads the record's key on {@code replica} at a linearizable snapshot: one that includes every change
     * acknowledged before the read began (the leader confirms the newest delivered counter, the replica waits for
     * it, at most {@code waitMax}).
     */
    static CompletableFuture<LinearizableRead> readLinearizably(
            ConsensusNode consensus, PartitionStateMachine replica, int partition, Duration waitMax) {
        return consensus
                .linearizableDeliveredCounter(partition)
                .thenCompose(replica::awaitSnapshot)
                .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(counter -> {
                    long snapshot = replica.snapshotCounter();
                    return new LinearizableRead(replica.read(AuthTable.KEY, snapshot), snapshot);
                });
    }

    static AuthTable decode(@Nullable Bytes value) {
        return value == null ? AuthTable.EMPTY : AuthTableCodec.decode(value.toByteArray());
    }

    /** The {@code auth-table} answer: the key's version, then the encoded record (empty: never written). */
    CompletableFuture<Bytes> tablePayload() {
        PartitionStateMachine replica = consensus.replica(partition);
        if (replica == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("this node holds no replica of partition " + partition));
        }
        return readLocally(replica).thenApply(AuthRecordPeers::payload);
    }

    /**
     * Carries out {@code change} ({@link AuthRecordChanges#change}), installs the table it wrote, and completes with
     * it.
     */
    CompletableFuture<AuthTable> change(AdminCommands.Change change) {
        return changes.change(change);
    }
}
