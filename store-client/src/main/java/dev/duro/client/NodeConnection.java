package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.wire.ClientRequest;
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
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

/**
 * One connection to one node, multiplexing requests by request id. Opened on first use and again after it
 * breaks; a break fails every request in flight with {@link UnavailableException}, so callers can fail over.
 */
final class NodeConnection {
    private final HostPort address;
    private final Bootstrap bootstrap;
    private final WireCodec codec;
    private final Duration timeout;
    private final Map<Long, CompletableFuture<ServerReply>> inFlight = new ConcurrentHashMap<>();
    private ChannelFuture connection;

    NodeConnection(HostPort address, EventLoopGroup group, WireCodec codec, Duration timeout, int frameBytesMax) {
        this.address = address;
        this.codec = codec;
        this.timeout = timeout;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline()
                                .addLast(new LengthFieldBasedFrameDecoder(frameBytesMax, 0, 4, 0, 4))
                                .addLast(new LengthFieldPrepender(4))
                                .addLast(new Replies());
                    }
                });
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
        ChannelFuture current = connection();
        current.addListener(f -> {
            if (!f.isSuccess()) {
                fail(
                        requestId,
                        "cannot connect to " + address + ": " + f.cause().getMessage());
                return;
            }
            current.channel().writeAndFlush(Unpooled.wrappedBuffer(frame)).addListener(w -> {
                if (!w.isSuccess()) {
                    fail(
                            requestId,
                            "cannot send to " + address + ": " + w.cause().getMessage());
                }
            });
        });
        return reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((answer, failure) -> {
            inFlight.remove(requestId);
            if (failure == null) {
                return answer;
            }
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof TimeoutException) {
                cause = new UnavailableException(
                        "no answer from " + address + " within " + timeout.toMillis() + " ms", true);
            }
            throw cause instanceof CompletionException completion ? completion : new CompletionException(cause);
        });
    }

    private synchronized ChannelFuture connection() {
        if (connection == null
                || (connection.isDone()
                        && (!connection.isSuccess() || !connection.channel().isActive()))) {
            connection = bootstrap.connect(address.host(), address.port());
        }
        return connection;
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

    /** Matches replies to requests; a closed channel fails what is still in flight. */
    private final class Replies extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext context, ByteBuf frame) {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            Message message;
            try {
                message = codec.decode(bytes);
            } catch (DuroException e) {
                return; // a reply we cannot read: its request times out and is retried elsewhere
            }
            if (message instanceof ServerReply reply) {
                CompletableFuture<ServerReply> waiting = inFlight.remove(reply.requestId());
                if (waiting != null) {
                    waiting.complete(reply);
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) {
            Channel channel = context.channel();
            for (Long requestId : inFlight.keySet()) {
                fail(requestId, "connection to " + address + " closed (" + channel + ")");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            context.close();
        }
    }
}
