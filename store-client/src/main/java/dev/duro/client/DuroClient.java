package dev.duro.client;

import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ServerReply;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 *
 * <p>A facade: requests and connections are {@link Transport}'s, the layout {@link ClusterViews}', retries
 * {@link TransactionAttempts}', the session floor {@link SessionTokens}', administration {@link AdminCommands}' and
 * the probes of nodes {@link ClusterProbes}'.
 */
public final class DuroClient implements AutoCloseable {
    private final Transport transport;
    private final ClusterViews views;
    private final long clientId;
    private final AtomicLong sequence = new AtomicLong();
    private final SessionTokens sessionTokens = new SessionTokens();
    /** Nodes that recently could not serve: tried last for a while. */
    private final NodeHealth health = new NodeHealth(System::nanoTime);

    private final TransactionAttempts attempts;
    private final AdminCommands adminCommands;
    private final ClusterProbes probes;

    private DuroClient(Builder builder) {
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
        this.attempts = new TransactionAttempts(builder.retryPolicy, this::begin, this::beginReadOnly);
        this.adminCommands = new AdminCommands(views, transport, builder.retryPolicy);
        this.probes = new ClusterProbes(views, transport);
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
     * {@linkplain RetryPolicy#commitResendsMax() resends} within its {@linkplain RetryPolicy#commitResendTime() resend
     * time} with backoff (by default long enough to ride out a leader's failover), which learns the outcome (a resent
     * id is answered with its first outcome). An abort learnt this way runs the body again as above; a commit returns.
     * If the outcome is still unknown, or the servers no longer retain it, the {@link UnavailableException} (with
     * {@link UnavailableException#outcomeUnknown()}) reaches the caller, who must decide.
     *
     * @throws TransactionAbortedException if every attempt aborted
     * @throws UnavailableException with {@code outcomeUnknown()} if the last attempt may have committed
     */
    public <T> T transact(Function<Transaction, T> body) {
        return attempts.transact(body);
    }

    /**
     * {@link #transact} without blocking any thread: {@code body} composes the transaction's asynchronous reads
     * ({@link Transaction#getAsync}, {@link Transaction#getAllAsync}) and its puts, and returns a stage with its
     * result; the client then commits, under the same rules of retry and resend as {@link #transact}. Steps run where
     * the previous one completed, usually a client I/O thread, so the body must not block; backoffs are delayed tasks.
     * The returned future fails with what {@link #transact} would throw.
     */
    public <T> CompletableFuture<T> transactAsync(Function<Transaction, ? extends CompletionStage<T>> body) {
        return attempts.transactAsync(body);
    }

    /** Runs {@code body} in a read-only transaction at {@link ReadConsistency#SNAPSHOT}. Never aborts. */
    public <T> T readOnly(Function<ReadOnlyTransaction, T> body) {
        return readOnly(ReadConsistency.SNAPSHOT, body);
    }

    /** Runs {@code body} in a read-only transaction of the given consistency. Never aborts. */
    public <T> T readOnly(ReadConsistency consistency, Function<ReadOnlyTransaction, T> body) {
        return attempts.readOnly(consistency, body);
    }

    /** {@link #readOnly} without blocking, at {@link ReadConsistency#SNAPSHOT}: as {@link #transactAsync}. */
    public <T> CompletableFuture<T> readOnlyAsync(Function<ReadOnlyTransaction, ? extends CompletionStage<T>> body) {
        return readOnlyAsync(ReadConsistency.SNAPSHOT, body);
    }

    /** {@link #readOnly(ReadConsistency, Function)} without blocking: as {@link #transactAsync}. */
    public <T> CompletableFuture<T> readOnlyAsync(
            ReadConsistency consistency, Function<ReadOnlyTransaction, ? extends CompletionStage<T>> body) {
        return attempts.readOnlyAsync(consistency, body);
    }

    /** Puts one key in its own transaction. */
    public CommitResult put(String key, String value) {
        Transaction committed = transact(tx -> {
            tx.put(key, value);
            return tx;
        });
        return committed.result();
    }

    /** A read-only transaction read {@code cut} ({@link SessionTokens#recordCut}). */
    void recordCut(long[] cut) {
        sessionTokens.recordCut(cut);
    }

    void recordCommit(CommitResult result) {
        sessionTokens.recordCommit(result);
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
        return sessionTokens.at(partition);
    }

    Map<Integer, Long> sessionTokens() {
        return sessionTokens.copy();
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
        return probes.awaitReady(timeout);
    }

    /**
     * What {@code node}'s replica of {@code partition} reports of itself: its SC, content digest and pending
     * transactions, and its view of the partition's Raft group (leader, term, commit and applied index). An
     * administration request ({@code ./duro status}); the digest costs the node a pass over the partition's keys.
     *
     * @throws ServerErrorException with {@code UNKNOWN_PARTITION} if the node holds no replica of the partition
     */
    public ReplicaStatusReply replicaStatus(HostPort node, int partition) {
        return probes.replicaStatus(node, partition);
    }

    /**
     * The consistent cut (one snapshot per partition) read-only transactions read at: {@code node} answers once
     * its cut reaches {@code minimum}, or after its wait limit with the cut it has. The Jepsen harness calls this
     * by reflection to probe each node (jepsen's {@code db.clj}, {@code probe-cuts}): keep the two in step.
     */
    long[] snapshotVector(HostPort node, ReadConsistency consistency, long[] minimum) {
        return probes.snapshotVector(node, consistency, minimum);
    }

    /** {@link #snapshotVector} without waiting: read-only transactions fetch their cut this way. */
    CompletableFuture<long[]> snapshotVectorAsync(HostPort node, ReadConsistency consistency, long[] minimum) {
        return probes.snapshotVectorAsync(node, consistency, minimum);
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
        return adminCommands.run(command, arguments, password);
    }

    CompletableFuture<ServerReply> call(HostPort node, LongFunction<ClientRequest> request) {
        return transport.call(node, request);
    }

    ServerReply await(CompletableFuture<ServerReply> reply) {
        return transport.await(reply);
    }

    @Override
    public void close() {
        transport.close();
    }
}
