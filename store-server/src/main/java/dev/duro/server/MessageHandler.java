package dev.duro.server;

import dev.duro.core.DuroException;
import dev.duro.core.LimitExceededException;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.node.AppendMessage;
import dev.duro.core.node.FrontierMessage;
import dev.duro.core.node.VoteMessage;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.PeerMessage;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ScanRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotFetchRequest;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.tls.ConnectionIdentity;
import dev.duro.server.tls.PeerIdentity;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes each frame and dispatches it: client requests to the read service and the coordinator, peer
 * messages to the replicas and the snapshot-vector service. Bad input gets a typed error reply and the
 * connection keeps working; only a frame too long to skip safely closes it, after the error is sent.
 */
@ChannelHandler.Sharable
final class MessageHandler extends SimpleChannelInboundHandler<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(MessageHandler.class);

    private final WireCodec codec;
    private final ReadService reads;
    private final Coordinator coordinator;
    private final ServerEffects effects;
    private final LeaderAppends appends;
    private final FrontierPublisher frontiers;
    private final SnapshotTransfer snapshots;
    private final DuroMetrics metrics;
    private final ClusterInfoSource clusterInfo;
    private final Duration waitMax;
    private final AccessControl access;
    private final boolean peersAuthenticated;
    private static final AttributeKey<Boolean> REFUSAL_LOGGED = AttributeKey.valueOf("duro.peer-refusal-logged");

    /** Builds the current cluster description for a request. */
    @FunctionalInterface
    interface ClusterInfoSource {
        ServerReply describe(long requestId);
    }

    MessageHandler(
            WireCodec codec,
            ReadService reads,
            Coordinator coordinator,
            ServerEffects effects,
            LeaderAppends appends,
            FrontierPublisher frontiers,
            SnapshotTransfer snapshots,
            DuroMetrics metrics,
            ClusterInfoSource clusterInfo,
            Duration waitMax,
            AccessControl access,
            boolean peersAuthenticated) {
        this.codec = codec;
        this.reads = reads;
        this.coordinator = coordinator;
        this.effects = effects;
        this.appends = appends;
        this.frontiers = frontiers;
        this.snapshots = snapshots;
        this.metrics = metrics;
        this.clusterInfo = clusterInfo;
        this.waitMax = waitMax;
        this.access = access;
        this.peersAuthenticated = peersAuthenticated;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, ByteBuf frame) {
        byte[] bytes = WireFrames.bytes(frame);
        Message message;
        try {
            message = codec.decode(bytes);
        } catch (LimitExceededException e) {
            reply(context, new ErrorReply(requestIdOf(bytes), ErrorCode.LIMIT_EXCEEDED, e.getMessage()));
            return;
        } catch (UnsupportedVersionException e) {
            // Its own code, as the protocol documents: the remedy is an upgrade, not a fix of the request.
            reply(context, new ErrorReply(requestIdOf(bytes), ErrorCode.UNSUPPORTED_VERSION, e.getMessage()));
            return;
        } catch (DuroException e) {
            reply(context, new ErrorReply(requestIdOf(bytes), ErrorCode.MALFORMED_FRAME, e.getMessage()));
            return;
        }
        if (isPeerMessage(message) && !mayActAsPeer(context)) {
            PeerIdentity identity = ConnectionIdentity.of(context.channel());
            // Once per connection: a misconfigured peer sends a frontier every few milliseconds.
            if (context.channel().attr(REFUSAL_LOGGED).setIfAbsent(Boolean.TRUE) == null) {
                LOG.warn(
                        "refused {} from {} ({}): peer messages are accepted from cluster nodes only (further"
                                + " refusals on this connection are not logged)",
                        message.type(),
                        context.channel().remoteAddress(),
                        identity);
            }
            reply(
                    context,
                    new ErrorReply(
                            requestIdOf(bytes),
                            ErrorCode.FORBIDDEN,
                            message.type() + " is a peer message; this connection is " + identity
                                    + ", not a cluster node (docs/security.md)"));
            return;
        }
        if (message instanceof SnapshotFetchRequest fetch) {
            snapshots.serve(context, fetch); // answered with a file, on a connection of its own
        } else if (message instanceof ClientRequest request) {
            // Authentication, admin requests and the auth rules first (docs/auth.md).
            access.serve(context.channel(), request, next -> serve(next, context.executor()))
                    .whenComplete((reply, failure) -> {
                        if (failure != null) {
                            LOG.warn("request failed", failure);
                            reply = new ErrorReply(requestIdOf(bytes), ErrorCode.INTERNAL, failure.toString());
                        }
                        reply(context, reply);
                    });
        } else if (message instanceof VoteMessage votes) {
            effects.deliverLocally(votes.targetPartition(), votes.votes());
        } else if (message instanceof FrontierMessage frontier) {
            frontiers.accept(frontier.frontier());
        } else if (message instanceof AppendMessage append) {
            appends.serve(append, reply -> reply(context, reply));
        } else {
            reply(
                    context,
                    new ErrorReply(
                            requestIdOf(bytes),
                            ErrorCode.MALFORMED_FRAME,
                            "a server does not accept " + message.type() + " messages"));
        }
    }

    private static boolean isPeerMessage(Message message) {
        return message instanceof PeerMessage || message instanceof SnapshotFetchRequest;
    }

    /**
     * With TLS, only a connection whose certificate names a configured node; without it anyone (plaintext links
     * authenticate no one: docs/security.md).
     */
    private boolean mayActAsPeer(ChannelHandlerContext context) {
        return !peersAuthenticated || ConnectionIdentity.of(context.channel()).isClusterNode();
    }

    /** Serves an allowed request; {@code loop} is its connection's event loop, where waiting reads go on. */
    private CompletableFuture<ServerReply> serve(ClientRequest request, Executor loop) {
        long startNanos = System.nanoTime();
        if (request instanceof ReadRequest read) {
            return reads.read(read, loop).whenComplete((reply, failure) -> metrics.readFinished("single", startNanos));
        }
        if (request instanceof MultiReadRequest read) {
            return reads.readAll(read, loop)
                    .whenComplete((reply, failure) -> metrics.readFinished("multi", startNanos));
        }
        if (request instanceof ScanRequest scan) {
            return reads.scan(scan, loop).whenComplete((reply, failure) -> metrics.readFinished("scan", startNanos));
        }
        if (request instanceof CommitTransaction commit) {
            return coordinator
                    .commit(commit)
                    .whenComplete((reply, failure) -> metrics.commitFinished(commit, reply, startNanos));
        }
        if (request instanceof ClusterInfoRequest info) {
            return CompletableFuture.completedFuture(clusterInfo.describe(info.requestId()));
        }
        if (request instanceof ReplicaStatusRequest status) {
            return CompletableFuture.completedFuture(reads.status(status));
        }
        if (request instanceof SnapshotVectorRequest vector) {
            metrics.cutServed(vector.linearizable());
            return snapshotVector(vector);
        }
        return CompletableFuture.completedFuture(new ErrorReply(
                request.requestId(), ErrorCode.MALFORMED_FRAME, "unsupported request " + request.type()));
    }

    /**
     * A cut of the chain, at least the request's minimum: at once if this node's cut covers it, else once a frontier
     * makes it, or after {@code server.read-wait-millis-max} with the cut this node has (the client sees it falls
     * short and asks another node).
     */
    private CompletableFuture<ServerReply> snapshotVector(SnapshotVectorRequest vector) {
        long requestId = vector.requestId();
        int partitions = frontiers.partitionCount();
        if (vector.minimum().size() > partitions) {
            return CompletableFuture.completedFuture(new ErrorReply(
                    requestId,
                    ErrorCode.UNKNOWN_PARTITION,
                    "the cut's minimum names " + vector.minimum().size() + " partitions; the cluster has "
                            + partitions));
        }
        if (vector.linearizable()) {
            return frontiers
                    .linearizableCut(vector.minimumArray(), waitMax)
                    .handle((cut, failure) -> failure == null
                            ? new SnapshotVectorReply(requestId, cut)
                            : new ErrorReply(
                                    requestId,
                                    ErrorCode.NOT_READY,
                                    "no linearizable cut within " + waitMax.toMillis() + " ms: " + failure));
        }
        long[] now = frontiers.cut();
        if (now == null) {
            return CompletableFuture.completedFuture(new ErrorReply(
                    requestId, ErrorCode.NOT_READY, "this node has not yet heard from every partition's leader"));
        }
        // On a timeout (or with too many waiting) the answer is the newest cut this node has, which falls short.
        return frontiers
                .cutCovering(vector.minimumArray(), waitMax)
                .handle((cut, failure) -> new SnapshotVectorReply(
                        requestId, failure == null ? cut : Objects.requireNonNullElse(frontiers.cut(), now)));
    }

    private static long requestIdOf(byte[] frame) {
        return WireCodec.requestIdOf(frame).orElse(ErrorReply.UNKNOWN_REQUEST);
    }

    /**
     * Sends {@code reply} on the connection's event loop. A commit's reply is completed on the partition's apply
     * thread, which must go back to applying the log: encoding there would make every partition's throughput pay
     * for its replies (docs/performance.md). Writing from another thread hands a task to the event loop anyway, so
     * the hop costs nothing extra.
     */
    private void reply(ChannelHandlerContext context, Message reply) {
        EventExecutor loop = context.executor();
        if (loop.inEventLoop()) {
            write(context, reply);
            return;
        }
        try {
            loop.execute(() -> write(context, reply));
        } catch (RejectedExecutionException shuttingDown) {
            // The node is closing its connections: nobody is left to answer.
        }
    }

    private void write(ChannelHandlerContext context, Message reply) {
        if (context.channel().isActive()) {
            context.writeAndFlush(WireFrames.encode(codec, reply), context.voidPromise());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (cause instanceof TooLongFrameException) {
            // The rest of the stream cannot be framed again: say why, then close.
            ErrorReply reply = new ErrorReply(
                    ErrorReply.UNKNOWN_REQUEST,
                    ErrorCode.LIMIT_EXCEEDED,
                    "frame exceeds server.frame-bytes-max: " + cause.getMessage());
            context.writeAndFlush(WireFrames.encode(codec, reply)).addListener(f -> context.close());
            return;
        }
        LOG.debug("connection {} failed: {}", context.channel().remoteAddress(), cause.toString());
        context.close();
    }
}
