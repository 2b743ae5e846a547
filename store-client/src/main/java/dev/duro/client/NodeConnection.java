package dev.duro.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.DuroException;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AuthenticateRequest;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.WireCodec;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to one node, multiplexing requests by request id. Opened on first use and again after it
 * breaks; a break fails every request in flight with {@link UnavailableException}, so callers can fail over.
 *
 * <p>With credentials, each new connection authenticates before it carries any other request (docs/auth.md):
 * requests wait for the node's answer. A refusal fails them with {@link AuthenticationException} and closes the
 * connection, so the next request authenticates again on a new one.
 */
final class NodeConnection {
    private static final Logger LOG = LoggerFactory.getLogger(NodeConnection.class);
    /** At most one warning about a connection per this period; the rest are counted. */
    private static final long WARNING_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final HostPort address;
    private final WarningGate warnings = new WarningGate(WARNING_PERIOD_NANOS, System::nanoTime);
    private final Bootstrap bootstrap;
    private final WireCodec codec;
    private final Duration timeout;
    private final @Nullable SslContext tls;
    private final Map<Long, CompletableFuture<ServerReply>> inFlight = new ConcurrentHashMap<>();
    private final @Nullable Credentials credentials;
    private final LongSupplier requestIds;

    @GuardedBy("this")
    private @Nullable ChannelFuture connection;
    /** The current connection, once it is open and, with credentials, authenticated. */
    @GuardedBy("this")
    private @Nullable CompletableFuture<Channel> ready;

    NodeConnection(
            HostPort address,
            EventLoopGroup group,
            WireCodec codec,
            Duration timeout,
            int frameBytesMax,
            @Nullable Credentials credentials,
            LongSupplier requestIds,
            @Nullable SslContext tls) {
        this.address = address;
        this.credentials = credentials;
        this.requestIds = requestIds;
        this.tls = tls;
        this.codec = codec;
        this.timeout = timeout;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(group instanceof EpollEventLoopGroup ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        frame(
                                channel.pipeline(),
                                tls == null ? null : tls.newHandler(channel.alloc(), address.host(), address.port()),
                                frameBytesMax);
                        channel.pipeline().addLast(new Replies());
                    }
                });
    }

    /**
     * The handlers every connection to a node starts with. First, one flush for the requests handed to the event
     * loop together (the sessions of a pool committing at once): one system call, not one each, TLS records
     * included. Then TLS, if any, and the length-prefixed frames of the protocol.
     */
    static void frame(ChannelPipeline pipeline, @Nullable SslHandler tls, int frameBytesMax) {
        pipeline.addLast(
                "flushes",
                new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        if (tls != null) {
            pipeline.addLast("tls", tls);
        }
        pipeline.addLast(new LengthFieldBasedFrameDecoder(frameBytesMax, 0, 4, 0, 4))
                .addLast(new LengthFieldPrepender(4));
    }

    HostPort address() {
        return address;
    }

    /**
     * Sends a request built for a fresh request id; completes with the server's reply (an {@link ErrorReply}
     * included) or fails with {@link UnavailableException} on a broken connection or timeout.
     */
    CompletableFuture<ServerReply> call(long requestId, LongFunction<ClientRequest> request) {
        CompletableFuture<ServerReply> reply = new CompletableFuture<>();
        byte[] frame;
        try {
            frame = codec.encode(request.apply(requestId));
        } catch (DuroException e) {
            reply.completeExceptionally(e);
            return reply;
        }
        inFlight.put(requestId, reply);
        ready().whenComplete((channel, failure) -> {
            if (failure != null) {
                Throwable cause = Transport.causeOf(failure);
                if (cause instanceof AuthenticationException refused) {
                    CompletableFuture<ServerReply> waiting = inFlight.remove(requestId);
                    if (waiting != null) {
                        waiting.completeExceptionally(refused);
                    }
                } else {
                    fail(requestId, "cannot connect to " + address + ": " + cause.getMessage());
                }
                return;
            }
            channel.writeAndFlush(Unpooled.wrappedBuffer(frame)).addListener(w -> {
                if (!w.isSuccess()) {
                    fail(requestId, "cannot send to " + address + ": " + describe(w.cause()));
                }
            });
        });
        return reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((answer, failure) -> {
            inFlight.remove(requestId);
            if (failure == null) {
                return answer;
            }
            Throwable cause = Transport.causeOf(failure);
            if (cause instanceof TimeoutException) {
                cause = new UnavailableException(
                        "no answer from " + address + " within " + timeout.toMillis() + " ms", true);
            }
            throw cause instanceof CompletionException completion ? completion : new CompletionException(cause);
        });
    }

    /** The open (and authenticated) connection, or a new one on its way. */
    private synchronized CompletableFuture<Channel> ready() {
        ChannelFuture current = connection;
        CompletableFuture<Channel> currentReady = ready;
        if (current != null
                && currentReady != null
                && !(current.isDone()
                        && (!current.isSuccess() || !current.channel().isActive()))
                && !currentReady.isCompletedExceptionally()) {
            return currentReady;
        }
        ChannelFuture opening = bootstrap.connect(address.host(), address.port());
        CompletableFuture<Channel> opened = new CompletableFuture<>();
        Credentials login = credentials;
        opening.addListener(f -> {
            if (!f.isSuccess()) {
                opened.completeExceptionally(f.cause());
            } else if (login == null) {
                opened.complete(opening.channel());
            } else {
                authenticate(opening.channel(), opened, login);
            }
        });
        connection = opening;
        ready = opened;
        return opened;
    }

    /** Sends the credentials first on a new connection; completes {@code opened} once the node accepts them. */
    private void authenticate(Channel channel, CompletableFuture<Channel> opened, Credentials credentials) {
        long requestId = requestIds.getAsLong();
        CompletableFuture<ServerReply> answer = new CompletableFuture<>();
        inFlight.put(requestId, answer);
        byte[] frame = codec.encode(new AuthenticateRequest(requestId, credentials.user(), credentials.password()));
        channel.writeAndFlush(Unpooled.wrappedBuffer(frame));
        answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((reply, failure) -> {
            inFlight.remove(requestId);
            if (reply instanceof AdminReply) {
                opened.complete(channel);
                return;
            }
            if (reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHENTICATED) {
                opened.completeExceptionally(new AuthenticationException(
                        address + " refused user '" + credentials.user() + "': " + error.message()));
            } else {
                opened.completeExceptionally(new UnavailableException(
                        "could not authenticate to " + address + ": "
                                + (failure != null
                                        ? failure
                                        : Transport.errorOf(reply).getMessage()),
                        false));
            }
            channel.close();
        });
    }

    private void fail(long requestId, String why) {
        CompletableFuture<ServerReply> reply = inFlight.remove(requestId);
        if (reply != null) {
            reply.completeExceptionally(new UnavailableException(why, true));
        }
    }

    void close() {
        ChannelFuture current;
        synchronized (this) {
            current = connection;
        }
        if (current != null) {
            current.channel().close();
        }
    }

    /** A TLS failure, in words that say what to check. */
    private String describe(Throwable cause) {
        if (cause instanceof SSLHandshakeException || cause instanceof SSLException) {
            return "TLS with the node failed (" + cause.getMessage() + "); check that the node speaks TLS and that"
                    + " its certificate is valid and from the CA this client trusts (docs/security.md)";
        }
        return String.valueOf(cause.getMessage());
    }

    /**
     * Matches replies to requests; a closed channel fails what is still in flight, saying why when it knows: a
     * plaintext connection the node closed before any answer most likely met a node that requires TLS.
     */
    private final class Replies extends SimpleChannelInboundHandler<ByteBuf> {
        private boolean answered;
        private @Nullable Throwable failure;

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess()) {
                failure = completion.cause();
            }
            super.userEventTriggered(context, event);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext context, ByteBuf frame) {
            answered = true;
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            Message message;
            try {
                message = codec.decode(bytes);
            } catch (DuroException e) {
                // Its request times out and is retried elsewhere; the connection stays, the next frame is whole.
                warnLimited("dropped an undecodable reply (" + bytes.length + " bytes): " + e.getMessage());
                return;
            }
            if (!(message instanceof ServerReply reply)) {
                warnLimited("dropped a " + message.type() + " message, which is no reply to a client");
                return;
            }
            CompletableFuture<ServerReply> waiting = inFlight.remove(reply.requestId());
            if (waiting == null) {
                // Normal: the answer to a request that timed out (or a duplicate) arrives after all.
                LOG.debug("{} answered request {}, which no longer waits", address, reply.requestId());
            } else {
                waiting.complete(reply);
            }
            if (credentials != null && reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHENTICATED) {
                // The login no longer holds (the user was removed, or given a new password: docs/auth.md): the
                // next request opens a new connection, which logs in again.
                context.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) {
            Channel channel = context.channel();
            String why;
            if (failure != null) {
                why = describe(failure);
            } else if (tls == null && !answered) {
                why = "the node closed it before any answer; the node may require TLS (configure the client with"
                        + " the cluster's CA: DuroClient.builder().tls(...), or --tls-ca on the command line), or it"
                        + " stopped (" + channel + ")";
            } else {
                why = channel.toString();
            }
            for (Long requestId : inFlight.keySet()) {
                fail(requestId, "connection to " + address + " closed: " + why);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            // A node that goes away resets its connections: routine, and what follows (failover) says enough.
            // Anything else (a frame over the limit, a bug) closes the connection too, but says why.
            if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
                failure = cause instanceof SSLException ? cause : cause.getCause();
                LOG.debug("TLS with {} failed: {}", address, cause.toString());
            } else if (cause instanceof IOException) {
                LOG.debug("connection to {} failed: {}", address, cause.toString());
            } else {
                warnLimited("closed the connection after an error: " + cause);
            }
            context.close();
        }
    }

    /**
     * Warns about what this connection did with something its node sent: at most once a period, counting the
     * warnings held back, so that a node sending garbage cannot flood the application's log.
     */
    private void warnLimited(String what) {
        OptionalLong heldBack = warnings.pass();
        if (heldBack.isEmpty()) {
            return;
        }
        long more = heldBack.getAsLong();
        if (more == 0) {
            LOG.warn("connection to {}: {}", address, what);
        } else {
            LOG.warn("connection to {}: {} ({} similar warnings held back before it)", address, what, more);
        }
    }
}
