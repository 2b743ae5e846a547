package dev.duro.server;

import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.concurrent.ThreadFactory;

/**
 * The node's Netty transport: Linux's native epoll where its library loads (Linux on x86-64 and ARM64, as the client's
 * transport), NIO elsewhere; and the flush consolidation every connection's pipeline starts with (docs/performance.md,
 * "Fewer system calls per message").
 */
final class NettyLoops {
    private NettyLoops() {}

    /** An event loop group of {@code threads} threads: epoll where it loads, else NIO. */
    static EventLoopGroup group(int threads, ThreadFactory threadFactory) {
        return Epoll.isAvailable()
                ? new EpollEventLoopGroup(threads, threadFactory)
                : new NioEventLoopGroup(threads, threadFactory);
    }

    /** The listening channel class that runs on {@code group}. */
    static Class<? extends ServerChannel> serverChannel(EventLoopGroup group) {
        return group instanceof EpollEventLoopGroup ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The connecting channel class that runs on {@code group}. */
    static Class<? extends SocketChannel> socketChannel(EventLoopGroup group) {
        return group instanceof EpollEventLoopGroup ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * Puts first in {@code pipeline} (before TLS, so that its records are consolidated too) a handler that turns the
     * flushes of one turn of the event loop into one: the replies to the commits of one log entry, handed to the loop
     * together, leave in one system call instead of one each. A flush made while the connection reads waits for the
     * end of the read; one made otherwise goes out once the loop has run the tasks already queued.
     */
    static void consolidateFlushes(ChannelPipeline pipeline) {
        pipeline.addFirst(
                "flushes",
                new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
    }
}
