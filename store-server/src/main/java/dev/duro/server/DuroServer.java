package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.LogContext;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.consensus.RaftTls;
import dev.duro.core.node.PeerMessageCodec;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.Passwords;
import dev.duro.server.tls.ConnectionIdentity;
import dev.duro.server.tls.NodeTls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Duro node: the Raft groups of its partitions, the Netty endpoint for clients and peers, the coordinator,
 * the vote exchange and the snapshot-vector service, wired together and started or stopped as one.
 */
public final class DuroServer implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(DuroServer.class);

    private final ServerConfig config;
    // Every thread of the node's own works for the node in the logging context (LogContext): several nodes share
    // one JVM in tests and benchmarks, and their lines must still say whose they are.
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final ScheduledExecutorService timers;
    private final ThreadPoolExecutor localVotes;
    /** Password hashing and verification, admin commands, and remote reads of the auth record (docs/auth.md). */
    private final ThreadPoolExecutor authWork;

    private final PeerLinks peers;
    private @Nullable LeaderAppends appends;
    private final @Nullable NodeTls tls;
    /** Set by {@link #startAll}; null only while a node starts, or after a start that failed. */
    private volatile @Nullable ConsensusNode consensus;

    private @Nullable FrontierPublisher frontiers;
    private @Nullable Channel listener;
    private final DuroMetrics metrics;
    private @Nullable NodeHttp http;

    private DuroServer(ServerConfig config) {
        this.config = config;
        String node = config.nodeId();
        this.bossGroup =
                NettyLoops.group(1, LogContext.forNode(node, new DefaultThreadFactory(node + "-accept", true)));
        this.workerGroup = NettyLoops.group(2, LogContext.forNode(node, new DefaultThreadFactory(node + "-io", true)));
        this.timers = Executors.newSingleThreadScheduledExecutor(LogContext.daemonThreads("timers", node));
        this.localVotes = new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(100_000),
                LogContext.daemonThreads("local-votes", node),
                new ThreadPoolExecutor.DiscardOldestPolicy());
        this.authWork = new ThreadPoolExecutor(
                2,
                2,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(1_000),
                LogContext.daemonThreads("auth", node),
                new ThreadPoolExecutor.AbortPolicy());
        this.metrics = new DuroMetrics(config.nodeId());
        this.tls = config.tls() == null
                ? null
                : new NodeTls(config.tls(), config.nodes().keySet());
        WireCodec codec = PeerMessageCodec.wireCodec(config.limits());
        this.peers = new PeerLinks(workerGroup, codec, config.nodes(), config.frameBytesMax(), tls);
    }

    /** Starts a node and returns once it accepts clients (its groups may still be electing leaders). */
    public static DuroServer start(ServerConfig config) throws IOException {
        // The caller's thread logs for this node while it starts it, and for whatever it did before afterwards.
        LogContext.Scope context = LogContext.node(config.nodeId());
        try {
            announceSecurity(config);
            DuroServer server = new DuroServer(config);
            try {
                server.startAll();
            } catch (IOException | RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        } finally {
            context.close();
        }
    }

    /** The node's first lines say whether its links are protected (docs/security.md). */
    private static void announceSecurity(ServerConfig config) {
        if (config.tls() == null) {
            LOG.warn(
                    "node {}: TLS is OFF (no tls.* settings): client, peer and Raft links are plaintext and"
                            + " unauthenticated; anyone who reaches its ports can read and write every key and send"
                            + " peer messages. For loopback development only; see docs/security.md",
                    config.nodeId());
        } else {
            LOG.info(
                    "node {}: TLS 1.3 on every link, certificate {} (valid until {}), peers must be cluster nodes {}",
                    config.nodeId(),
                    config.tls().certificate().getSubjectX500Principal().getName(),
                    config.tls().certificate().getNotAfter().toInstant(),
                    config.nodes().keySet());
            if (config.tls().certificate().getNotAfter().toInstant().isBefore(Instant.now())) {
                LOG.warn(
                        "node {}: its certificate (tls.cert-file) has EXPIRED: peers and clients will refuse it",
                        config.nodeId());
            }
        }
    }

    private void startAll() throws IOException {
        WireCodec codec = PeerMessageCodec.wireCodec(config.limits());
        OutcomeWaiters waiters = new OutcomeWaiters(config.inflightCommitsMax());
        LeaderAppends appends = new LeaderAppends(
                config.nodeId(), this::consensus, peers, config.limits(), config.frameBytesMax(), workerGroup);
        peers.onAppendReplies(appends::answered);
        this.appends = appends;
        metrics.watch(appends);
        ServerEffects effects = new ServerEffects(config.nodeId(), waiters, this::consensus, peers, localVotes);
        SnapshotTransfer snapshots = new SnapshotTransfer(
                config.nodeId(), codec, config.nodes(), config.frameBytesMax(), this::consensus, tls);
        consensus = ConsensusNode.start(
                config.nodeId(),
                ConsensusConfiguration.topology(config),
                ConsensusConfiguration.settings(config),
                config.engine(),
                config.limits(),
                (partition, produced) -> {
                    metrics.effects(partition, produced);
                    effects.handle(partition, produced);
                },
                snapshots,
                tls == null ? null : new RaftTls(tls.keyManager(), tls.memberTrust()));
        consensus.handOffCommandsTo(appends);
        consensus.placeLeaders(config.preferredLeaders());
        metrics.watch(consensus);
        Routing routing = new Routing(config.partitioner(), config.partitionCount());
        FrontierPublisher frontiers = new FrontierPublisher(
                consensus,
                peers,
                config.nodeId(),
                new ArrayList<>(config.nodes().keySet()),
                () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
        this.frontiers = frontiers;
        metrics.watch(frontiers, config.partitionCount());
        Coordinator coordinator = new Coordinator(
                consensus, waiters, config.commitTimeout(), frontiers::newestHeard, config.coordinatorLagMax());
        int authPartition = routing.partitionOf(AuthTable.KEY);
        AuthRecord authRecord = new AuthRecord(
                consensus,
                coordinator,
                codec,
                config.nodes(),
                authPartition,
                config.placement().get(authPartition),
                config.readWaitMax(),
                config.frameBytesMax(),
                authWork,
                tls);
        // With TLS only a connection whose certificate names a cluster node reads the whole auth record; with
        // plaintext links peers are not told apart from clients, so it is served to any connection that asks, as
        // votes are accepted from any (docs/auth.md, "Without TLS").
        AccessControl access = new AccessControl(
                authRecord,
                new Passwords(config.authPasswordIterations(), new SecureRandom()),
                authWork,
                config.readWaitMax(),
                tls != null);
        MessageHandler handler = new MessageHandler(
                codec,
                new ReadService(consensus, routing, config.readWaitMax(), config.frameBytesMax(), config.scanKeysMax()),
                coordinator,
                effects,
                appends,
                frontiers,
                snapshots,
                metrics,
                new ClusterDescription(config, routing, consensus),
                config.readWaitMax(),
                access,
                tls != null);
        ServerConfig.HostPort self = config.self().address();
        listener = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(NettyLoops.serverChannel(bossGroup))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        ConnectionIdentity.install(channel.pipeline(), tls);
                        NettyLoops.consolidateFlushes(channel.pipeline());
                        if (tls != null) {
                            // Snapshot files cross TLS in chunks (SnapshotTransfer), below the frame encoder.
                            channel.pipeline().addLast("chunks", new ChunkedWriteHandler());
                        }
                        WireFrames.install(channel.pipeline(), config.frameBytesMax());
                        channel.pipeline().addLast("duro", handler);
                    }
                })
                .bind(new InetSocketAddress(config.bindHost(), self.port()))
                .syncUninterruptibly()
                .channel();
        if (config.httpPort() >= 0) {
            http = new NodeHttp(config.nodeId(), config.bindHost(), config.httpPort(), metrics, this::consensus);
            LOG.info(
                    "node {} health, readiness and metrics on http://{}:{}/health, /ready, /metrics",
                    config.nodeId(),
                    config.bindHost(),
                    http.port());
        }
        long tickMillis = config.tickInterval().toMillis();
        timers.scheduleWithFixedDelay(this::tickAll, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
        long refreshMillis = config.authRefresh().toMillis();
        timers.scheduleWithFixedDelay(
                () -> guarded(
                        "auth refresh",
                        () -> authRecord.tick(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()), refreshMillis)),
                0,
                AuthRecord.TICK_MILLIS,
                TimeUnit.MILLISECONDS);
        long frontierMillis = config.frontierInterval().toMillis();
        timers.scheduleWithFixedDelay(
                () -> guarded("frontier", frontiers::publish), frontierMillis, frontierMillis, TimeUnit.MILLISECONDS);
        LOG.info(
                "node {} serving clients on {} (raft {}), partitions {}{}",
                config.nodeId(),
                self,
                config.self().raft(),
                consensus.topology().partitionsOf(config.nodeId()),
                describeBinding(config));
    }

    /** How the node binds and what it tells clients, where either differs from its address. */
    private static String describeBinding(ServerConfig config) {
        StringBuilder text = new StringBuilder();
        if (!config.bindHost().equals(config.self().address().host())) {
            text.append(", bound to ").append(config.bindHost());
        }
        if (!config.self().advertised().equals(config.self().address())) {
            text.append(", advertised to clients as ").append(config.self().advertised());
        }
        return text.toString();
    }

    private void tickAll() {
        guarded("tick", () -> {
            long now = System.currentTimeMillis();
            for (PartitionStateMachine replica : consensus().replicas()) {
                replica.tick(now);
            }
        });
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("{} failed", what, e); // a periodic task must not stop for good on one failure
        }
    }

    public ServerConfig config() {
        return config;
    }

    /** This node's consensus, for tests and administration. */
    public ConsensusNode consensus() {
        return Objects.requireNonNull(consensus, "the node has not started");
    }

    /** This node's appends to the leaders of partitions it does not lead, for tests; null before it started. */
    @Nullable
    LeaderAppends appends() {
        return appends;
    }

    /** This node's links to its peers, for tests. */
    PeerLinks peers() {
        return peers;
    }

    /** This node's vector-of-snapshots service, for tests. */
    FrontierPublisher frontiers() {
        return Objects.requireNonNull(frontiers, "the node has not started");
    }

    /** Stops accepting, then stops the groups; in-flight commits complete or fail with unknown outcome. */
    @Override
    public void close() throws IOException {
        if (http != null) {
            http.close();
        }
        if (listener != null) {
            listener.close().syncUninterruptibly();
        }
        timers.shutdownNow();
        localVotes.shutdownNow();
        authWork.shutdownNow();
        peers.close();
        try {
            if (consensus != null) {
                consensus.close();
            }
        } finally {
            metrics.close();
            workerGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            bossGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** The port of this node's HTTP endpoint, or -1 if it has none ({@code server.http-port}). */
    public int httpPort() {
        return http == null ? -1 : http.port();
    }
}
