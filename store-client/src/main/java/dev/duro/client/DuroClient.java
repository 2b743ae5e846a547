package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.store.SnapshotTooOldException;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import dev.duro.core.wire.WireCodec;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The entry point of Duro's Java API.
 *
 * <pre>{@code
 * try (DuroClient client = DuroClient.builder().seeds("localhost:7101").build()) {
 *     client.transact(tx -> {
 *         long balance = tx.getLong("alice");
 *         tx.putLong("alice", balance - 10);
 *         tx.putLong("bob", tx.getLong("bob") + 10);
 *         return null;
 *     });
 *     long total = client.readOnly(ro -> ro.getLong("alice") + ro.getLong("bob"));
 * }
 * }</pre>
 *
 * <p>Thread-safe; share one client per application. Transactions are not thread-safe.
 */
public final class DuroClient implements AutoCloseable {
    /** How old the cluster view may grow before {@link #cluster()} refreshes it in the background. */
    static final Duration VIEW_REFRESH = Duration.ofSeconds(2);

    private final List<HostPort> seeds;
    private final Duration requestTimeout;
    private final RetryPolicy retryPolicy;
    private final WireCodec codec;
    private final EventLoopGroup group;
    private final int frameBytesMax;
    private final long clientId;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong requestIds = new AtomicLong();
    private final Map<HostPort, NodeConnection> connections = new ConcurrentHashMap<>();
    /** Per partition, the newest version this client committed there: reads never go below it. */
    private final Map<Integer, Long> sessionTokens = new ConcurrentHashMap<>();
    /** Nodes that recently could not serve: tried last for a while. */
    private final NodeHealth health = new NodeHealth(System::nanoTime);

    private volatile ClusterView view;
    /** When {@link #view} was fetched ({@link System#nanoTime()}). */
    private volatile long viewFetchedNanos;
    /** Whether a background refresh of the view is under way. */
    private final AtomicBoolean refreshingView = new AtomicBoolean();

    private DuroClient(Builder builder) {
        this.seeds = List.copyOf(builder.seeds);
        this.requestTimeout = builder.requestTimeout;
        this.retryPolicy = builder.retryPolicy;
        // Replies are decoded within the largest limits any cluster may have; the cluster's own are checked
        // before sending (limits()).
        this.codec = new WireCodec(Limits.CEILING);
        this.frameBytesMax = builder.frameBytesMax;
        this.group = new NioEventLoopGroup(builder.ioThreads, daemonThreads());
        this.clientId = new SecureRandom().nextLong();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Configures a client; only the seeds are required. */
    public static final class Builder {
        private final List<HostPort> seeds = new ArrayList<>();
        private Duration requestTimeout = Duration.ofSeconds(10);
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private int ioThreads = 2;
        private int frameBytesMax = 64 << 20;

        /** Addresses ({@code host:port}) of any nodes of the cluster; the rest is discovered. */
        public Builder seeds(String... addresses) {
            for (String address : addresses) {
                for (String one : address.split(",")) {
                    if (!one.isBlank()) {
                        seeds.add(parse(one.trim()));
                    }
                }
            }
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = policy;
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = threads;
            return this;
        }

        public DuroClient build() {
            if (seeds.isEmpty()) {
                throw new IllegalArgumentException("a client needs at least one seed address (host:port)");
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive");
            }
            return new DuroClient(this);
        }

        private static HostPort parse(String address) {
            int colon = address.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("seed must be host:port, was '" + address + "'");
            }
            return new HostPort(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        }
    }

    // ---- transactions ----

    /** Begins an update transaction; prefer {@link #transact}, which retries aborts. */
    public Transaction begin() {
        return new Transaction(this, new TxId(clientId, sequence.incrementAndGet()));
    }

    /** Begins a read-only transaction: it reads a consistent snapshot of all partitions and never aborts. */
    public ReadOnlyTransaction beginReadOnly() {
        return beginReadOnly(ReadConsistency.SNAPSHOT);
    }

    public ReadOnlyTransaction beginReadOnly(ReadConsistency consistency) {
        return new ReadOnlyTransaction(this, consistency);
    }

    /**
     * Runs {@code body} in a transaction and commits it, running the whole body again in a new transaction only
     * when the attempt is known not to have committed: certification aborted it, or a snapshot was too old before
     * its commit was sent (with jittered backoff, up to the retry policy's attempts). The body may run several
     * times: keep it free of side effects outside the transaction.
     *
     * <p>When a commit's outcome is unknown (no coordinator answered), the body is not run again, since the
     * attempt may have committed: the same frozen request is resent under the same id, up to the retry policy's
     * {@linkplain RetryPolicy#commitResendsMax() resends} with backoff, which learns the outcome (a resent id is
     * answered with its first outcome). An abort learnt this way runs the body again as above; a commit returns.
     * If the outcome is still unknown, or the servers no longer retain it, the {@link UnavailableException} (with
     * {@link UnavailableException#outcomeUnknown()}) reaches the caller, who must decide.
     *
     * @throws TransactionAbortedException if every attempt aborted
     * @throws UnavailableException with {@code outcomeUnknown()} if the last attempt may have committed
     */
    public <T> T transact(Function<Transaction, T> body) {
        DuroException last = null;
        for (int attempt = 1; attempt <= retryPolicy.attemptsMax(); attempt++) {
            if (attempt > 1) {
                pause(retryPolicy.backoff(attempt));
            }
            Transaction transaction = begin();
            try {
                T result = body.apply(transaction);
                commitUntilKnown(transaction);
                return result;
            } catch (TransactionAbortedException e) {
                last = e;
            } catch (SnapshotTooOldException e) {
                if (transaction.commitSent()) {
                    // Servers answer a commit with an abort outcome, never this error, so it came from a read; but
                    // if it ever followed a send, the body must not run again.
                    throw new UnavailableException(
                            "the commit of " + transaction.id() + " was sent, then failed (" + e.getMessage()
                                    + "); it may have committed",
                            true);
                }
                last = e;
            } finally {
                transaction.close();
            }
        }
        throw last;
    }

    /** Commits, resending the same request while the outcome is unknown and another send may learn it. */
    private void commitUntilKnown(Transaction transaction) {
        for (int resend = 0; ; resend++) {
            try {
                transaction.commit();
                return;
            } catch (UnavailableException e) {
                if (!e.outcomeUnknown() || transaction.outcomeLost() || resend >= retryPolicy.commitResendsMax()) {
                    throw e;
                }
            }
            pause(retryPolicy.backoff(resend + 2));
        }
    }

    /** {@link #transact} without blocking the caller: runs on a shared pool. */
    public <T> CompletableFuture<T> transactAsync(Function<Transaction, T> body) {
        return CompletableFuture.supplyAsync(() -> transact(body));
    }

    /** Runs {@code body} in a read-only transaction at {@link ReadConsistency#SNAPSHOT}. Never aborts. */
    public <T> T readOnly(Function<ReadOnlyTransaction, T> body) {
        return readOnly(ReadConsistency.SNAPSHOT, body);
    }

    /** Runs {@code body} in a read-only transaction of the given consistency. Never aborts. */
    public <T> T readOnly(ReadConsistency consistency, Function<ReadOnlyTransaction, T> body) {
        for (int attempt = 1; ; attempt++) {
            try {
                return body.apply(beginReadOnly(consistency));
            } catch (SnapshotTooOldException e) {
                if (attempt >= retryPolicy.attemptsMax()) {
                    throw e; // only when reads stall for longer than the cluster keeps versions
                }
            }
        }
    }

    public <T> CompletableFuture<T> readOnlyAsync(Function<ReadOnlyTransaction, T> body) {
        return CompletableFuture.supplyAsync(() -> readOnly(body));
    }

    /** Puts one key in its own transaction. */
    public CommitResult put(String key, String value) {
        Transaction committed = transact(tx -> {
            tx.put(key, value);
            return tx;
        });
        return committed.result();
    }

    /**
     * A read-only transaction read {@code cut}: later transactions of this client read no older snapshot (monotonic
     * reads). Cuts form one chain, so a later cut covering this one always comes.
     */
    void recordCut(long[] cut) {
        for (int partition = 0; partition < cut.length; partition++) {
            if (cut[partition] > 0) {
                sessionTokens.merge(partition, cut[partition], Math::max);
            }
        }
    }

    void recordCommit(CommitResult result) {
        result.versions().forEach((partition, version) -> sessionTokens.merge(partition, version, Math::max));
    }

    /** Reads one key at the newest snapshot this client may see. */
    public String get(String key) {
        return readOnly(ro -> ro.get(key));
    }

    // ---- plumbing shared by the transactions ----

    /**
     * The cluster's size limits, as it reported them with its layout ({@code limits.*} on the nodes): keys, values
     * and transactions outside them are refused here, before anything is sent. The first call may fetch the layout.
     */
    Limits limits() {
        return cluster().limits();
    }

    long sessionToken(int partition) {
        return sessionTokens.getOrDefault(partition, 0L);
    }

    Map<Integer, Long> sessionTokens() {
        return Map.copyOf(sessionTokens);
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    NodeHealth health() {
        return health;
    }

    /**
     * The cluster as last seen, fetched from the seeds on first use. A view older than {@link #VIEW_REFRESH} is
     * refreshed in the background (this call does not wait), so commits follow leaders that moved although
     * nothing failed: a node that led a partition before it crashed serves again as a follower, and would
     * otherwise go on coordinating this client's commits while it catches up.
     */
    public ClusterView cluster() {
        ClusterView current = view;
        if (current == null) {
            return refreshCluster();
        }
        if (System.nanoTime() - viewFetchedNanos > VIEW_REFRESH.toNanos()
                && refreshingView.compareAndSet(false, true)) {
            CompletableFuture<Void> unused = CompletableFuture.runAsync(() -> {
                try {
                    refreshCluster();
                } catch (RuntimeException keepTheLastView) {
                    // nothing answered: the last view stays, and failures on the request path fail over as before
                } finally {
                    refreshingView.set(false);
                }
            });
        }
        return current;
    }

    /** Asks the nodes for the current layout (leaders move); tries every known node before giving up. */
    public ClusterView refreshCluster() {
        List<HostPort> candidates = new ArrayList<>(seeds);
        ClusterView current = view;
        if (current != null) {
            candidates.addAll(current.allNodes());
        }
        DuroException last = null;
        for (HostPort node : candidates.stream().distinct().toList()) {
            try {
                ServerReply reply = await(call(node, ClusterInfoRequest::new));
                if (reply instanceof ClusterInfoReply info) {
                    ClusterView fresh = new ClusterView(info);
                    viewFetchedNanos = System.nanoTime();
                    view = fresh;
                    return fresh;
                }
                last = errorOf(reply);
            } catch (DuroException e) {
                last = e;
            }
        }
        throw new UnavailableException(
                "no node answered with the cluster layout (tried " + candidates + "): "
                        + (last == null ? "no candidates" : last.getMessage()),
                false);
    }

    /**
     * Waits until every partition has a leader and a node serves a linearizable cut, so the cluster really serves:
     * that cut needs a Raft ReadIndex from every partition's leader and the chain of cuts in partition 0's log. The
     * probe only reads; it writes nothing into the keyspace.
     *
     * @throws UnavailableException if that does not happen within {@code timeout}
     */
    public ClusterView awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        DuroException last = null;
        while (System.nanoTime() < deadline) {
            try {
                ClusterView view = refreshCluster();
                boolean leaders = true;
                for (int p = 0; p < view.partitionCount(); p++) {
                    leaders &= view.leader(p) != null;
                }
                if (leaders) {
                    snapshotVector(view.leader(0), ReadConsistency.LINEARIZABLE, new long[0]);
                    return refreshCluster();
                }
            } catch (DuroException e) {
                last = e;
            }
            pause(Duration.ofMillis(200));
        }
        throw new UnavailableException(
                "cluster not ready within " + timeout.toSeconds() + " s"
                        + (last == null ? "" : ": " + last.getMessage()),
                false);
    }

    /**
     * What {@code node}'s replica of {@code partition} reports of itself: its SC, content digest and pending
     * transactions, and its view of the partition's Raft group (leader, term, commit and applied index). An
     * administration request ({@code ./duro status}); the digest costs the node a pass over the partition's keys.
     *
     * @throws ServerErrorException with {@code UNKNOWN_PARTITION} if the node holds no replica of the partition
     */
    public ReplicaStatusReply replicaStatus(HostPort node, int partition) {
        ServerReply reply = await(call(node, id -> new ReplicaStatusRequest(id, partition)));
        if (reply instanceof ReplicaStatusReply status) {
            return status;
        }
        throw errorOf(reply);
    }

    /**
     * The consistent cut (one snapshot per partition) read-only transactions read at: {@code node} answers once
     * its cut reaches {@code minimum}, or after its wait limit with the cut it has. The Jepsen harness calls this
     * by reflection to probe each node (jepsen's {@code db.clj}, {@code probe-cuts}): keep the two in step.
     */
    long[] snapshotVector(HostPort node, ReadConsistency consistency, long[] minimum) {
        boolean linearizable = consistency == ReadConsistency.LINEARIZABLE;
        List<Long> floor = Arrays.stream(minimum).boxed().toList();
        ServerReply reply = await(call(node, id -> new SnapshotVectorRequest(id, linearizable, floor)));
        if (reply instanceof SnapshotVectorReply vector) {
            return vector.cutArray();
        }
        throw errorOf(reply);
    }

    CompletableFuture<ServerReply> call(HostPort node, LongFunction<ClientRequest> request) {
        NodeConnection connection = connections.computeIfAbsent(
                node, address -> new NodeConnection(address, group, codec, requestTimeout, frameBytesMax));
        return connection.call(requestIds.incrementAndGet(), request);
    }

    /** Waits for a reply, turning transport failures into {@link DuroException}s. */
    ServerReply await(CompletableFuture<ServerReply> reply) {
        try {
            return reply.get(requestTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof DuroException duro) {
                throw duro;
            }
            throw new UnavailableException("request failed: " + cause, true);
        } catch (TimeoutException e) {
            throw new UnavailableException("no answer within " + requestTimeout.toMillis() + " ms", true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while waiting for the cluster", true);
        }
    }

    static DuroException errorOf(ServerReply reply) {
        if (reply instanceof ErrorReply error) {
            if (error.code() == ErrorCode.SNAPSHOT_TOO_OLD) {
                return new SnapshotTooOldException(error.message());
            }
            if (error.code() == ErrorCode.OUTCOME_UNKNOWN) {
                return new UnavailableException(
                        "an earlier attempt may have committed and its outcome is no longer retained ("
                                + error.message() + "); committing again gets the same answer",
                        true);
            }
            return new ServerErrorException(error.code(), error.message());
        }
        return new ServerErrorException(ErrorCode.INTERNAL, "unexpected reply " + reply.type());
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while backing off", false);
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicLong count = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, "duro-client-io-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        for (NodeConnection connection : connections.values()) {
            connection.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
