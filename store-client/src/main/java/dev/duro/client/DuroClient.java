package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.Limits;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.TxId;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;
import javax.annotation.Nullable;

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
    /** Passes over the auth record's replicas an admin command makes before giving up. */
    private static final int ADMIN_ROUNDS = 5;

    private final RetryPolicy retryPolicy;
    private final Transport transport;
    private final ClusterViews views;
    private final long clientId;
    private final AtomicLong sequence = new AtomicLong();
    /** Per partition, the newest version this client committed there: reads never go below it. */
    private final Map<Integer, Long> sessionTokens = new ConcurrentHashMap<>();
    /** Nodes that recently could not serve: tried last for a while. */
    private final NodeHealth health = new NodeHealth(System::nanoTime);

    private DuroClient(Builder builder) {
        this.retryPolicy = builder.retryPolicy;
        this.transport = new Transport(
                builder.ioThreads,
                builder.requestTimeout,
                builder.frameBytesMax,
                builder.credentials,
                builder.tlsCaFile == null
                        ? null
                        : ClientTls.context(builder.tlsCaFile, builder.tlsCertFile, builder.tlsKeyFile));
        this.views = new ClusterViews(builder.seeds, transport);
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
        private @Nullable Credentials credentials;
        private @Nullable Path tlsCaFile;
        private @Nullable Path tlsCertFile;
        private @Nullable Path tlsKeyFile;

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

        /**
         * Authenticates every connection as {@code user} before it carries a request (docs/auth.md). Needed once
         * the cluster's auth is enabled; a refusal fails requests with {@link AuthenticationException}. The password
         * is copied: the caller may clear its array.
         */
        public Builder credentials(String user, char[] password) {
            if (user == null || user.isEmpty()) {
                throw new IllegalArgumentException("credentials need a user name");
            }
            this.credentials = Credentials.of(user, password);
            return this;
        }

        /**
         * Speaks TLS 1.3 to the nodes (docs/security.md): trusts nodes whose certificate the CA in {@code caFile}
         * issued (PEM), and presents the client certificate {@code certFile} with its key {@code keyFile} (PEM,
         * PKCS#8) when both are given; without them the client connects anonymously. A node with TLS on refuses
         * plaintext clients, and a node without it cannot answer a TLS client.
         */
        public Builder tls(Path caFile, @Nullable Path certFile, @Nullable Path keyFile) {
            this.tlsCaFile = Objects.requireNonNull(caFile, "caFile");
            this.tlsCertFile = certFile;
            this.tlsKeyFile = keyFile;
            return this;
        }

        /** {@link #tls(Path, Path, Path)} without a client certificate. */
        public Builder tls(Path caFile) {
            return tls(caFile, null, null);
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
        return transport.requestTimeout();
    }

    NodeHealth health() {
        return health;
    }

    /**
     * The cluster as last seen, fetched from the seeds on first use and refreshed in the background every
     * {@link ClusterViews#REFRESH_AFTER}, so commits follow leaders that moved although nothing failed.
     */
    public ClusterView cluster() {
        return views.current();
    }

    /** Asks the nodes for the current layout (leaders move); tries every known node before giving up. */
    public ClusterView refreshCluster() {
        return views.refresh();
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
        throw Transport.errorOf(reply);
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
        throw Transport.errorOf(reply);
    }

    // ---- administration of users, roles and grants ----

    /**
     * Runs an administration command (docs/auth.md, "Commands"): {@code user-add NAME} (with {@code password};
     * null makes a user that authenticates by certificate only), {@code user-remove NAME}, {@code user-grant-role
     * NAME ROLE}, {@code user-revoke-role NAME ROLE}, {@code role-add ROLE}, {@code role-remove ROLE}, {@code
     * role-grant ROLE read|readwrite PREFIX}, {@code role-revoke ROLE PREFIX}, {@code auth-enable}, {@code
     * auth-disable}, {@code auth-status}. Sent to a replica of the auth record's partition, which changes the
     * record; a node that cannot serve it now is passed over for the next (a change whose outcome a node could not
     * learn may then be refused as already made, naming what exists).
     *
     * @return what the node did, or the status asked for
     * @throws PermissionDeniedException once auth is enabled, for anyone but a user with the role {@code root}
     * @throws ServerErrorException with {@code MALFORMED_FRAME} naming the argument, for a command that does not
     *     apply (an unknown command or role, a user that exists already)
     */
    public String admin(String command, List<String> arguments, @Nullable char[] password) {
        Bytes secret = password == null ? null : Credentials.of("-", password).password();
        DuroException last = null;
        for (int round = 0; round < ADMIN_ROUNDS; round++) {
            ClusterView view = round == 0 ? cluster() : refreshCluster();
            int partition = view.partitionOf(AdminRequest.AUTH_RECORD_KEY);
            List<HostPort> nodes = new ArrayList<>(view.replicas(partition));
            HostPort leader = view.leader(partition);
            if (leader != null) {
                nodes.remove(leader);
                nodes.add(0, leader); // its linearizable reads cost no round trip
            }
            for (HostPort node : nodes) {
                ServerReply reply;
                try {
                    reply = await(call(node, id -> new AdminRequest(id, command, arguments, secret)));
                } catch (UnavailableException e) {
                    last = e;
                    continue;
                }
                if (reply instanceof AdminReply done) {
                    return done.text();
                }
                DuroException error = Transport.errorOf(reply);
                if (!(reply instanceof ErrorReply refused
                        && FrozenCommit.anotherCoordinatorMayAnswer(refused.code()))) {
                    throw error;
                }
                last = error;
            }
            pause(retryPolicy.backoff(round + 1));
        }
        throw new UnavailableException(
                "no replica of the auth record's partition carried out " + command + ": "
                        + (last == null ? "none known" : last.getMessage()),
                true);
    }

    CompletableFuture<ServerReply> call(HostPort node, LongFunction<ClientRequest> request) {
        return transport.call(node, request);
    }

    ServerReply await(CompletableFuture<ServerReply> reply) {
        return transport.await(reply);
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while backing off", false);
        }
    }

    @Override
    public void close() {
        transport.close();
    }
}
