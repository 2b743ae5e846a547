package dev.duro.server;

import dev.duro.core.DuroException;
import dev.duro.core.node.AppendReply;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.tls.NodeTls;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.Closeable;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connections from this node to every other node, for votes, frontiers and appends to a partition's leader. One connection per peer, opened on
 * first use and again after it breaks. Messages are best effort: the engine retransmits votes it misses, and
 * frontiers are resent in full when the connection changes (see {@link #channel}). Messages waiting for a
 * connection are bounded; beyond the bound they are dropped.
 *
 * <p>With TLS ({@link NodeTls}) each link presents this node's certificate and accepts only the certificate of the
 * node it dialled; a link whose handshake fails is broken like one that cannot connect (docs/security.md).
 */
final class PeerLinks implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerLinks.class);
    private static final int WAITING_FOR_CONNECTION_MAX = 10_000;
    private static final long RECONNECT_BACKOFF_NANOS = 200_000_000L;

    private final Bootstrap bootstrap;
    private final @Nullable NodeTls tls;
    private final int frameBytesMax;
    private final WireCodec codec;
    private final Map<String, ServerConfig.Node> nodes;
    private final Map<String, Link> links = new ConcurrentHashMap<>();
    /** Where the leaders' answers to this node's appends go ({@link LeaderAppends}); none until it is set. */
    private volatile Consumer<AppendReply> appendReplies = reply -> {};

    private final class Link {
        final ServerConfig.Node node;
        final Bootstrap linkBootstrap;
        final AtomicInteger waiting = new AtomicInteger();
        volatile @Nullable ChannelFuture connection;
        long lastAttemptNanos;

        Link(ServerConfig.Node node) {
            this.node = node;
            this.linkBootstrap = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel channel) {
                    if (tls != null) {
                        channel.pipeline()
                                .addLast(
                                        "tls",
                                        tls.peer(node.id())
                                                .newHandler(
                                                        channel.alloc(),
                                                        node.address().host(),
                                                        node.address().port()));
                    }
                    WireFrames.install(channel.pipeline(), frameBytesMax);
                    channel.pipeline().addLast("failures", new FailureLog(node.id()));
                    NettyLoops.consolidateFlushes(channel.pipeline());
                }
            });
        }

        synchronized ChannelFuture connection() {
            ChannelFuture current = connection;
            boolean broken = current != null
                    && current.isDone()
                    && (!current.isSuccess() || !current.channel().isActive());
            boolean backingOff = broken && System.nanoTime() - lastAttemptNanos < RECONNECT_BACKOFF_NANOS;
            if (current == null || (broken && !backingOff)) {
                lastAttemptNanos = System.nanoTime();
                current = linkBootstrap.connect(
                        node.address().host(), node.address().port());
                connection = current;
                current.addListener(f -> {
                    if (!f.isSuccess()) {
                        LOG.debug("cannot reach {}: {}", node.id(), f.cause().toString());
                    }
                });
            }
            return current;
        }
    }

    PeerLinks(
            EventLoopGroup group,
            WireCodec codec,
            Map<String, ServerConfig.Node> nodes,
            int frameBytesMax,
            @Nullable NodeTls tls) {
        this.codec = codec;
        this.nodes = nodes;
        this.frameBytesMax = frameBytesMax;
        this.tls = tls;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NettyLoops.socketChannel(group))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1_000);
    }

    /**
     * Says why a link failed: a TLS handshake refused (a certificate that is not the dialled node's, another CA, an
     * expired one) at WARN, since it does not heal by itself, and anything the peer answered or broke otherwise at
     * DEBUG; then the link is closed and reconnects later.
     */
    private final class FailureLog extends ChannelInboundHandlerAdapter {
        private final String nodeId;
        private boolean refusalLogged;

        FailureLog(String nodeId) {
            this.nodeId = nodeId;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess()) {
                LOG.warn(
                        "TLS link to {} refused: {}", nodeId, completion.cause().toString());
            }
            super.userEventTriggered(context, event);
        }

        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            // A peer answers appends (LeaderAppends), and other peer messages only to refuse them (FORBIDDEN: it does
            // not take this node for a member, its configuration differs). A refusal is said once per connection:
            // every vote and frontier on it gets the same.
            try {
                if (message instanceof ByteBuf frame) {
                    Object answer = decode(frame);
                    if (answer instanceof AppendReply reply) {
                        appendReplies.accept(reply);
                    } else if (!refusalLogged) {
                        refusalLogged = true;
                        LOG.warn("{} refused a peer message from this node: {}", nodeId, answer);
                    }
                }
            } finally {
                ReferenceCountUtil.release(message);
            }
        }

        private Object decode(ByteBuf frame) {
            try {
                return codec.decode(WireFrames.bytes(frame));
            } catch (DuroException e) {
                return "an undecodable answer (" + e.getMessage() + ")";
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            LOG.debug("link to {} failed: {}", nodeId, cause.toString());
            context.close();
        }
    }

    /** Hands the leaders' answers to this node's appends to {@code replies}. */
    void onAppendReplies(Consumer<AppendReply> replies) {
        this.appendReplies = replies;
    }

    /** Sends {@code message} to node {@code nodeId}; never blocks. */
    void send(String nodeId, Message message) {
        Link link = links.computeIfAbsent(
                nodeId, id -> new Link(Objects.requireNonNull(nodes.get(id), "a configured node")));
        ChannelFuture connection = link.connection();
        if (connection.isDone()) {
            if (connection.isSuccess()) {
                write(connection.channel(), message);
            }
            return;
        }
        if (link.waiting.incrementAndGet() > WAITING_FOR_CONNECTION_MAX) {
            link.waiting.decrementAndGet();
            return;
        }
        connection.addListener(f -> {
            link.waiting.decrementAndGet();
            if (f.isSuccess()) {
                write(connection.channel(), message);
            }
        });
    }

    /**
     * The live channel to {@code nodeId}, or null while there is none; then a connection attempt is started
     * (at most one per backoff period), so a caller that polls this keeps reconnecting a link that carries no
     * other traffic. A new channel after a reconnect is a different object, which callers use to notice that
     * the peer may have missed what was sent before.
     */
    @Nullable
    Channel liveChannel(String nodeId) {
        Link link = links.computeIfAbsent(
                nodeId, id -> new Link(Objects.requireNonNull(nodes.get(id), "a configured node")));
        ChannelFuture connection = link.connection();
        return connection.isSuccess() && connection.channel().isActive() ? connection.channel() : null;
    }

    private void write(Channel channel, Message message) {
        if (channel.isActive()) {
            channel.writeAndFlush(WireFrames.encode(codec, message), channel.voidPromise());
        }
    }

    @Override
    public void close() {
        for (Link link : links.values()) {
            ChannelFuture connection = link.connection;
            if (connection != null) {
                connection.channel().close();
            }
        }
    }
}
