package dev.duro.client;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.VersionedValue;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.MultiReadReply;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.PartitionerSpec;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import dev.duro.core.wire.WireCodec;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Nodes on loopback that speak the real wire protocol ({@link WireCodec}, framed as {@link NodeConnection} frames
 * it) with no engine behind them. One partition, replicated on every node, led by node 0 unless {@linkplain #leader
 * moved}. Reads answer "absent" at a snapshot that grows with every read taken at the latest snapshot, so a second
 * snapshot-fixing read would change a commit request; reads can be scripted too. Commits are answered from a
 * script, in the order they arrive at any node, and recorded; once the script runs out, every commit commits.
 *
 * <p>For fail-over and session tests a node can also {@linkplain #stop stop}, {@linkplain #reached lag} behind a
 * snapshot counter (it then refuses reads that need more, as a server does after its read wait) and answer
 * consistent cuts of its own ({@link #cut}).
 */
final class FakeCluster implements AutoCloseable {
    /** How a node answers one commit request. Runs on the node's event loop. */
    @FunctionalInterface
    interface Answer {
        void give(FakeCluster cluster, ChannelHandlerContext context, CommitTransaction request);
    }

    /** How a node answers one read request. Runs on the node's event loop. */
    @FunctionalInterface
    interface ReadAnswer {
        void give(FakeCluster cluster, ChannelHandlerContext context, ReadRequest request);
    }

    /** A commit request as node {@code node} received it. */
    record Received(int node, CommitTransaction request) {
        /** Everything but the request id, which each send numbers afresh. */
        CommitTransaction content() {
            return new CommitTransaction(0, request.tid(), request.participants());
        }
    }

    static final long FIRST_SNAPSHOT = 10;
    private static final int FRAME_BYTES_MAX = 1 << 20;

    private final WireCodec codec = new WireCodec(Limits.DEFAULT);
    /** What the cluster reports as its limits with its layout. */
    private volatile Limits limits = Limits.DEFAULT;

    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final List<Channel> listeners = new ArrayList<>();
    private final List<HostPort> addresses = new ArrayList<>();
    private final Queue<Answer> script = new ConcurrentLinkedQueue<>();
    private final Queue<ReadAnswer> readScript = new ConcurrentLinkedQueue<>();
    private final List<Received> commits = new CopyOnWriteArrayList<>();
    private final AtomicInteger latestReads = new AtomicInteger();
    private final Queue<ClientRequest> readRequests = new ConcurrentLinkedQueue<>();
    private final AtomicInteger versions = new AtomicInteger(100);
    private final AtomicInteger connections = new AtomicInteger();
    /** The node each of {@link #readRequests} arrived at, in the same order. */
    private final Queue<Integer> readNodes = new ConcurrentLinkedQueue<>();

    private final AtomicInteger leader = new AtomicInteger(0);
    private final Queue<Integer> clusterInfoNodes = new ConcurrentLinkedQueue<>();
    /** Per node: the snapshot counter it has reached, or {@link #NOT_LAGGING}. */
    private final AtomicLongArray reached;
    /** Per node: the cut (of the one partition) it answers. */
    private final AtomicLongArray cuts;
    /** Per node: the error it answers cut requests with, or null. */
    private final AtomicReferenceArray<ErrorCode> cutErrors;

    private final Queue<CutAsked> cutRequests = new ConcurrentLinkedQueue<>();
    private final Queue<Long> cutScript = new ConcurrentLinkedQueue<>();
    /** Per node: the connections it accepted, closed when it {@linkplain #stop stops}. */
    private final List<Queue<Channel>> accepted = new ArrayList<>();

    /** A node that serves any snapshot asked for: the default. */
    static final long NOT_LAGGING = -1;

    /** A request for a consistent cut as node {@code node} received it. */
    record CutAsked(int node, SnapshotVectorRequest request) {}

    FakeCluster(int nodes) {
        reached = new AtomicLongArray(nodes);
        cuts = new AtomicLongArray(nodes);
        cutErrors = new AtomicReferenceArray<>(nodes);
        for (int node = 0; node < nodes; node++) {
            reached.set(node, NOT_LAGGING);
            cuts.set(node, FIRST_SNAPSHOT);
            accepted.add(new ConcurrentLinkedQueue<>());
        }
        for (int node = 0; node < nodes; node++) {
            int index = node;
            Channel listener = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            connections.incrementAndGet();
                            accepted.get(index).add(channel);
                            channel.pipeline()
                                    .addLast(new LengthFieldBasedFrameDecoder(FRAME_BYTES_MAX, 0, 4, 0, 4))
                                    .addLast(new LengthFieldPrepender(4))
                                    .addLast(new Node(index));
                        }
                    })
                    .bind("127.0.0.1", 0)
                    .syncUninterruptibly()
                    .channel();
            listeners.add(listener);
            addresses.add(new HostPort("127.0.0.1", ((InetSocketAddress) listener.localAddress()).getPort()));
        }
    }

    /** A client of this cluster that never sleeps between retries. */
    DuroClient client(int commitResendsMax) {
        return client(commitResendsMax, Duration.ofSeconds(5));
    }

    /** A client of this cluster that never sleeps between retries and waits {@code requestTimeout} for an answer. */
    DuroClient client(int commitResendsMax, Duration requestTimeout) {
        return client(new RetryPolicy(5, Duration.ZERO, Duration.ZERO, commitResendsMax), requestTimeout);
    }

    /** A client of this cluster that retries under {@code policy} and waits {@code requestTimeout} for an answer. */
    DuroClient client(RetryPolicy policy, Duration requestTimeout) {
        return DuroClient.builder()
                .seeds(addresses.get(0).host() + ":" + addresses.get(0).port())
                .requestTimeout(requestTimeout)
                .retryPolicy(policy)
                .ioThreads(1)
                .build();
    }

    /** Makes the cluster report {@code reported} as its limits with its layout. */
    FakeCluster limits(Limits reported) {
        this.limits = reported;
        return this;
    }

    /** The next commits to arrive, at whichever node, get these answers in turn. */
    FakeCluster then(Answer... answers) {
        script.addAll(List.of(answers));
        return this;
    }

    /** The next reads to arrive, at whichever node, get these answers in turn; then reads answer "absent". */
    FakeCluster thenReads(ReadAnswer... answers) {
        readScript.addAll(List.of(answers));
        return this;
    }

    /** Node {@code node}'s client address. */
    HostPort address(int node) {
        return addresses.get(node);
    }

    /** From now on the cluster layout names {@code node} as the partition's leader. */
    FakeCluster leader(int node) {
        leader.set(node);
        return this;
    }

    /** Node {@code node} has reached snapshot counter {@code counter} ({@link #NOT_LAGGING}: any). */
    FakeCluster reached(int node, long counter) {
        reached.set(node, counter);
        return this;
    }

    /** Node {@code node} answers requests for a consistent cut with {@code snapshot}, whatever the minimum asked. */
    FakeCluster cut(int node, long snapshot) {
        cuts.set(node, snapshot);
        return this;
    }

    /**
     * The next requests for a consistent cut, at whichever node, are answered with these snapshots in turn; then
     * each node answers with its own ({@link #cut}).
     */
    FakeCluster thenCuts(long... snapshots) {
        for (long snapshot : snapshots) {
            cutScript.add(snapshot);
        }
        return this;
    }

    /** Node {@code node} answers requests for a consistent cut with {@code code} (null: with its cut). */
    FakeCluster cutError(int node, ErrorCode code) {
        cutErrors.set(node, code);
        return this;
    }

    /**
     * Stops node {@code node} as a crash would: it no longer accepts connections, and the ones it had are closed.
     */
    void stop(int node) {
        listeners.get(node).close().syncUninterruptibly();
        for (Channel channel : accepted.get(node)) {
            channel.close().syncUninterruptibly();
        }
    }

    List<Received> commits() {
        return List.copyOf(commits);
    }

    /** Every read request, single-key and multi-key, as the nodes received them. */
    List<ClientRequest> readRequests() {
        return List.copyOf(readRequests);
    }

    /** How many connections the nodes have accepted. */
    int connectionsAccepted() {
        return connections.get();
    }

    List<HostPort> addresses() {
        return List.copyOf(addresses);
    }

    /** The node each read request arrived at, in the order of {@link #readRequests}. */
    List<Integer> readNodes() {
        return List.copyOf(readNodes);
    }

    /** The nodes asked for the cluster layout, in order. */
    List<Integer> clusterInfoNodes() {
        return List.copyOf(clusterInfoNodes);
    }

    /** Every request for a consistent cut, in the order they arrived. */
    List<CutAsked> cutRequests() {
        return List.copyOf(cutRequests);
    }

    /** Reads taken at the latest snapshot: the reads that fix a transaction's snapshot. */
    int latestReads() {
        return latestReads.get();
    }

    // ---- answers ----

    static Answer commit() {
        return (cluster, context, request) -> cluster.reply(
                context,
                new OutcomeReply(
                        request.requestId(), Outcome.committed(request.tid(), request.partitions(), List.of((long)
                                cluster.versions.incrementAndGet()))));
    }

    static Answer abort() {
        return (cluster, context, request) -> cluster.reply(
                context,
                new OutcomeReply(
                        request.requestId(),
                        Outcome.aborted(
                                request.tid(),
                                request.partitions(),
                                AbortReason.readKeyOverwritten(0, Bytes.utf8("contended"), 42, false))));
    }

    static Answer error(ErrorCode code) {
        return (cluster, context, request) ->
                cluster.reply(context, new ErrorReply(request.requestId(), code, "scripted " + code));
    }

    /** Closes the connection without answering, as a node that crashes after receiving the request would. */
    static Answer hangUp() {
        return (cluster, context, request) -> {
            ChannelFuture unused = context.close();
        };
    }

    /** Gives {@code answer} once {@code release} completes. */
    static Answer heldUntil(CompletableFuture<?> release, Answer answer) {
        return (cluster, context, request) -> {
            CompletableFuture<Void> unused =
                    release.thenRun(() -> context.executor().execute(() -> answer.give(cluster, context, request)));
        };
    }

    /** "Absent", at the snapshot asked for or, for the latest, at a snapshot newer than the last one given. */
    static ReadAnswer absent() {
        return (cluster, context, request) -> {
            long snapshot =
                    request.readsLatest() ? FIRST_SNAPSHOT + cluster.latestReads.getAndIncrement() : request.snapshot();
            cluster.reply(context, new ReadReply(request.requestId(), 0, snapshot, null, 0));
        };
    }

    /** Closes the connection without answering the read, as a node that crashes would. */
    static ReadAnswer readHangUp() {
        return (cluster, context, request) -> {
            ChannelFuture unused = context.close();
        };
    }

    /** Never answers the read, as a node that hangs would; the connection stays open. */
    static ReadAnswer readSilence() {
        return (cluster, context, request) -> {};
    }

    static ReadAnswer readError(ErrorCode code) {
        return (cluster, context, request) ->
                cluster.reply(context, new ErrorReply(request.requestId(), code, "scripted " + code));
    }

    /** Sends {@code frames} frames that are no message (of an unknown protocol version) first, then {@code answer}. */
    static ReadAnswer garbageThen(int frames, ReadAnswer answer) {
        return (cluster, context, request) -> {
            for (int i = 0; i < frames; i++) {
                ChannelFuture unused = context.write(Unpooled.wrappedBuffer(new byte[] {(byte) 0x7f, (byte) i}));
            }
            answer.give(cluster, context, request);
        };
    }

    /** Gives {@code answer} once {@code release} completes. */
    static ReadAnswer readHeldUntil(CompletableFuture<?> release, ReadAnswer answer) {
        return (cluster, context, request) -> {
            CompletableFuture<Void> unused =
                    release.thenRun(() -> context.executor().execute(() -> answer.give(cluster, context, request)));
        };
    }

    private void reply(ChannelHandlerContext context, ServerReply reply) {
        ChannelFuture unused = context.writeAndFlush(Unpooled.wrappedBuffer(codec.encode(reply)));
    }

    private final class Node extends SimpleChannelInboundHandler<ByteBuf> {
        private final int index;

        Node(int index) {
            this.index = index;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext context, ByteBuf frame) {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            Message message = codec.decode(bytes);
            if (message instanceof ClusterInfoRequest request) {
                clusterInfoNodes.add(index);
                reply(
                        context,
                        new ClusterInfoReply(
                                request.requestId(),
                                "fake",
                                PartitionerSpec.hash(),
                                List.of(new ClusterInfoReply.PartitionInfo(addresses, leader.get())),
                                limits));
            } else if (message instanceof SnapshotVectorRequest request) {
                cutRequests.add(new CutAsked(index, request));
                ErrorCode error = cutErrors.get(index);
                if (error != null) {
                    reply(context, new ErrorReply(request.requestId(), error, "scripted " + error));
                } else {
                    Long scripted = cutScript.poll();
                    long cut = scripted != null ? scripted : cuts.get(index);
                    reply(context, new SnapshotVectorReply(request.requestId(), List.of(cut)));
                }
            } else if (message instanceof MultiReadRequest request) {
                readRequests.add(request);
                readNodes.add(index);
                if (refusedAsLagging(
                        context,
                        request.requestId(),
                        request.readsLatest(),
                        request.snapshot(),
                        request.minVersion())) {
                    return;
                }
                long snapshot = request.readsLatest() ? latestSnapshot() : request.snapshot();
                List<VersionedValue> absent = request.keys().stream()
                        .map(key -> VersionedValue.ABSENT)
                        .toList();
                reply(context, new MultiReadReply(request.requestId(), 0, snapshot, absent));
            } else if (message instanceof ReadRequest request) {
                readRequests.add(request);
                readNodes.add(index);
                if (refusedAsLagging(
                        context,
                        request.requestId(),
                        request.readsLatest(),
                        request.snapshot(),
                        request.minVersion())) {
                    return;
                }
                ReadAnswer answer = readScript.poll();
                if (answer != null) {
                    answer.give(FakeCluster.this, context, request);
                } else {
                    long snapshot = request.readsLatest() ? latestSnapshot() : request.snapshot();
                    reply(context, new ReadReply(request.requestId(), 0, snapshot, null, 0));
                }
            } else if (message instanceof CommitTransaction request) {
                commits.add(new Received(index, request));
                Answer answer = script.poll();
                (answer == null ? commit() : answer).give(FakeCluster.this, context, request);
            } else {
                throw new AssertionError("the fake cluster does not serve " + message.type());
            }
        }

        /**
         * Whether this node lags behind what a read needs (the snapshot asked for, or the session token) and refused it
         * as a server does once its read wait is over. A lagging node serves the latest snapshot at its counter.
         */
        private boolean refusedAsLagging(
                ChannelHandlerContext context, long requestId, boolean readsLatest, long snapshot, long minVersion) {
            long counter = reached.get(index);
            long needed = readsLatest ? minVersion : Math.max(snapshot, minVersion);
            if (counter == NOT_LAGGING || needed <= counter) {
                return false;
            }
            reply(
                    context,
                    new ErrorReply(
                            requestId,
                            ErrorCode.SNAPSHOT_NOT_READY,
                            "node " + index + " did not reach snapshot " + needed + " (it is at " + counter + ")"));
            return true;
        }

        /** The snapshot a read at the latest one is served at by this node. */
        private long latestSnapshot() {
            long counter = reached.get(index);
            return counter == NOT_LAGGING ? FIRST_SNAPSHOT + latestReads.getAndIncrement() : counter;
        }
    }

    @Override
    public void close() {
        for (Channel listener : listeners) {
            listener.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
