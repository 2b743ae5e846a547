package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.auth.AdminCommands;
import dev.duro.server.auth.AdminException;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.AuthTableCodec;
import dev.duro.server.tls.NodeTls;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's copy of the cluster's auth record ({@link AuthTable#KEY}), and the writer of its changes
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
 * node: read the record at snapshot {@code s}, apply the change, commit the new value with snapshot {@code s}.
 * The write is certified as a read, so a concurrent change that committed after {@code s} aborts this one, which
 * is then retried on a fresh read (bounded). No change is ever lost to another.
 *
 * <p>Installed tables only move forward: each carries the version of the key it was read at, and an older one
 * (a slow refresh overtaken by a change) is dropped.
 */
final class AuthRecord {
    private static final Logger LOG = LoggerFactory.getLogger(AuthRecord.class);
    /** Attempts of one change's read-modify-write before giving up with NOT_READY. */
    static final int CHANGE_ATTEMPTS_MAX = 20;

    /** How often the node calls {@link #tick}. */
    static final long TICK_MILLIS = 50;

    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final ConsensusNode consensus;
    private final Coordinator coordinator;
    private final WireCodec codec;
    private final Map<String, ServerConfig.Node> nodes;
    /** This node's TLS, for reading the record from another node; null with plaintext links. */
    private final @Nullable NodeTls tls;

    private final List<String> replicaNodes;
    private final int partition;
    private final Duration waitMax;
    private final int frameBytesMax;
    private final Executor blocking;
    private final long clientId = new SecureRandom().nextLong();
    private final AtomicLong sequence = new AtomicLong();

    /** The table and the version of the key it was read at (0: the key was never written). */
    record Versioned(AuthTable table, long version) {}

    private volatile @Nullable Versioned current;
    private final AtomicBoolean reading = new AtomicBoolean();
    /** Guarded by this: the read {@link #refreshNow} callers share. */
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
        this.coordinator = coordinator;
        this.codec = codec;
        this.nodes = nodes;
        this.tls = tls;
        this.partition = partition;
        this.replicaNodes = List.copyOf(replicaNodes);
        this.waitMax = waitMax;
        this.frameBytesMax = frameBytesMax;
        this.blocking = blocking;
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
            return CompletableFuture.supplyAsync(this::readRemotely, blocking);
        }
        return readLocally(replica)
                .exceptionallyCompose(local -> CompletableFuture.supplyAsync(this::readRemotely, blocking));
    }

    /**
     * The record at a linearizable snapshot of the local replica only: what this node answers another that asks
     * ({@code auth-table}), so two nodes that are both behind never ask each other in a loop.
     */
    private CompletableFuture<Versioned> readLocally(PartitionStateMachine replica) {
        return consensus
                .linearizableDeliveredCounter(partition)
                .thenCompose(replica::awaitSnapshot)
                .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(counter -> {
                    long snapshot = replica.snapshotCounter();
                    VersionedValue value = replica.read(AuthTable.KEY, snapshot);
                    return new Versioned(decode(value.value()), value.version());
                });
    }

    private static AuthTable decode(@Nullable Bytes value) {
        return value == null ? AuthTable.EMPTY : AuthTableCodec.decode(value.toByteArray());
    }

    /**
     * Asks each other replica of the record's partition in turn ({@code auth-table}); the first answer wins. Each
     * answers from its own replica at a linearizable snapshot, so the record is as fresh as a local read's.
     */
    private Versioned readRemotely() {
        StringBuilder failures = new StringBuilder();
        for (String node : replicaNodes) {
            if (node.equals(consensus.nodeId())) {
                continue;
            }
            try {
                AdminReply reply = askForTable(node, nodes.get(node));
                if (reply.payload() == null) {
                    throw new IOException("its answer carries no record");
                }
                byte[] payload = reply.payload().toByteArray();
                // The payload is the version of the key, then the record.
                long version = java.nio.ByteBuffer.wrap(payload, 0, Long.BYTES).getLong();
                byte[] record = java.util.Arrays.copyOfRange(payload, Long.BYTES, payload.length);
                return new Versioned(record.length == 0 ? AuthTable.EMPTY : AuthTableCodec.decode(record), version);
            } catch (IOException | DuroException | IndexOutOfBoundsException e) {
                failures.append(failures.isEmpty() ? "" : "; ")
                        .append(node)
                        .append(": ")
                        .append(e.getMessage());
            }
        }
        throw new IllegalStateException(
                "no replica of partition " + partition + " gave the auth record (" + failures + ")");
    }

    private AdminReply askForTable(String id, ServerConfig.Node node) throws IOException {
        try (Socket socket = PeerSockets.connect(tls, id, node.address(), CONNECT_TIMEOUT_MILLIS)) {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, waitMax.toMillis() + CONNECT_TIMEOUT_MILLIS));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            byte[] request = codec.encode(new AdminRequest(1, AdminCommands.TABLE, List.of(), null));
            out.writeInt(request.length);
            out.write(request);
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            int length = in.readInt();
            if (length <= 0 || length > frameBytesMax) {
                throw new IOException("answered with a frame of " + length + " bytes");
            }
            Message answer = codec.decode(in.readNBytes(length));
            if (answer instanceof ErrorReply error) {
                throw new IOException("refused: " + error.code() + ": " + error.message());
            }
            if (!(answer instanceof AdminReply reply)) {
                throw new IOException("answered with " + answer.type());
            }
            return reply;
        }
    }

    /** The {@code auth-table} answer: the key's version, then the encoded record (empty: never written). */
    CompletableFuture<Bytes> tablePayload() {
        PartitionStateMachine replica = consensus.replica(partition);
        if (replica == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("this node holds no replica of partition " + partition));
        }
        return readLocally(replica).thenApply(read -> {
            byte[] record = read.version() == 0 && read.table().equals(AuthTable.EMPTY)
                    ? new byte[0]
                    : AuthTableCodec.encode(read.table());
            byte[] payload = new byte[Long.BYTES + record.length];
            java.nio.ByteBuffer.wrap(payload).putLong(read.version()).put(record);
            return Bytes.wrap(payload);
        });
    }

    /**
     * Carries out {@code change} by read-modify-write of the record (see the class documentation), installs the
     * table it wrote, and completes with it. Fails with an {@link AdminException} when the change does not apply to
     * the table of the moment, or with a {@link ChangeFailed} carrying the server's error.
     */
    CompletableFuture<AuthTable> change(AdminCommands.Change change) {
        if (consensus.replica(partition) == null) {
            return CompletableFuture.failedFuture(new ChangeFailed(
                    null,
                    "node " + consensus.nodeId()
                            + " holds no replica of partition " + partition
                            + ", which holds the auth record; send admin"
                            + " requests to one of " + replicaNodes));
        }
        return attempt(change, 1);
    }

    /** A change that could not be committed: the coordinator's error reply, or why none was asked. */
    static final class ChangeFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient @Nullable ErrorReply reply;

        ChangeFailed(@Nullable ErrorReply reply, String message) {
            super(message);
            this.reply = reply;
        }
    }

    private CompletableFuture<AuthTable> attempt(AdminCommands.Change change, int attempt) {
        return readAt().thenCompose(read -> {
            AuthTable next = change.apply().apply(read.table); // may throw AdminException: nothing is written
            CommitTransaction commit = new CommitTransaction(
                    0,
                    new TxId(clientId, sequence.incrementAndGet()),
                    List.of(new CommitTransaction.Participant(
                            partition,
                            read.snapshot,
                            List.of(),
                            List.of(Write.put(AuthTable.KEY, Bytes.wrap(AuthTableCodec.encode(next)))))));
            return coordinator.commit(commit).thenCompose(reply -> settle(change, attempt, next, reply));
        });
    }

    private CompletableFuture<AuthTable> settle(
            AdminCommands.Change change, int attempt, AuthTable next, ServerReply reply) {
        if (reply instanceof OutcomeReply outcome && outcome.outcome().committed()) {
            install(new Versioned(next, outcome.outcome().versionAt(partition)));
            LOG.info("auth record changed: {}", change.description());
            return CompletableFuture.completedFuture(next);
        }
        if (reply instanceof OutcomeReply outcome && attempt < CHANGE_ATTEMPTS_MAX) {
            LOG.debug("auth change {} aborted ({}), attempt {}", change.description(), outcome.outcome(), attempt);
            return attempt(change, attempt + 1); // a concurrent change won: apply ours to its result
        }
        if (reply instanceof ErrorReply error) {
            return CompletableFuture.failedFuture(new ChangeFailed(error, error.message()));
        }
        return CompletableFuture.failedFuture(new ChangeFailed(
                null,
                "the auth record kept changing under " + change.description() + " for " + CHANGE_ATTEMPTS_MAX
                        + " attempts; nothing was written, try again"));
    }

    private record ReadAt(AuthTable table, long snapshot) {}

    /** The record at a linearizable snapshot of the local replica, and that snapshot (the change's {@code st}). */
    private CompletableFuture<ReadAt> readAt() {
        PartitionStateMachine replica = consensus.replica(partition);
        return consensus
                .linearizableDeliveredCounter(partition)
                .thenCompose(replica::awaitSnapshot)
                .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(counter -> {
                    long snapshot = replica.snapshotCounter();
                    return new ReadAt(
                            decode(replica.read(AuthTable.KEY, snapshot).value()), snapshot);
                });
    }
}
