package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The node's connections run on epoll where the project ships its library, and start by consolidating flushes. */
class NettyLoopsTest {
    @Test
    void theNodesLoopsRunOnEpollOnLinuxForTheProcessorsItsNativeLibraryIsShippedFor() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        assumeTrue(os.contains("linux") && Set.of("amd64", "aarch64").contains(arch), "not " + os + "/" + arch);
        assertTrue(Epoll.isAvailable(), () -> "epoll does not load: " + Epoll.unavailabilityCause());
        EventLoopGroup group = NettyLoops.group(1, new DefaultThreadFactory("test-io", true));
        try {
            assertInstanceOf(EpollEventLoopGroup.class, group);
            assertEquals(EpollServerSocketChannel.class, NettyLoops.serverChannel(group));
            assertEquals(EpollSocketChannel.class, NettyLoops.socketChannel(group));
        } finally {
            group.shutdownGracefully();
        }
    }

    @Test
    void nioLoopsTakeNioChannels() {
        EventLoopGroup nio = new NioEventLoopGroup(1, new DefaultThreadFactory("test-nio", true));
        try {
            assertEquals(NioServerSocketChannel.class, NettyLoops.serverChannel(nio));
            assertEquals(NioSocketChannel.class, NettyLoops.socketChannel(nio));
        } finally {
            nio.shutdownGracefully();
        }
    }

    @Test
    void flushesAreConsolidatedFirstInThePipelineSoThatEveryHandlersFlushesJoin() {
        // A handler that answers each frame it reads with three replies, each flushed, as reads served on the loop do.
        EmbeddedChannel channel = new EmbeddedChannel(new LengthFieldPrepender(4), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext context, Object message) {
                ReferenceCountUtil.release(message);
                for (int reply = 0; reply < 3; reply++) {
                    context.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) reply}));
                }
            }
        });
        NettyLoops.consolidateFlushes(channel.pipeline());
        assertInstanceOf(FlushConsolidationHandler.class, channel.pipeline().first());
        assertEquals("flushes", channel.pipeline().names().get(0));
        AtomicInteger flushes = new AtomicInteger();
        channel.pipeline().addFirst("count", new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext context) {
                flushes.incrementAndGet();
                context.flush();
            }
        });

        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));

        assertEquals(1, flushes.get(), "three replies written during one read leave in one flush, at its end");
        assertEquals(6, channel.outboundMessages().size(), "each reply framed: its length, then itself");
        channel.finishAndReleaseAll();
    }
}
