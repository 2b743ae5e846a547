package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
        assertInstanceOf(EpollEventLoopGroup.class, group);
        assertChannels(group, EpollServerSocketChannel.class, EpollSocketChannel.class);
    }

    @Test
    void nioLoopsTakeNioChannels() {
        assertChannels(
                new NioEventLoopGroup(1, new DefaultThreadFactory("test-nio", true)),
                NioServerSocketChannel.class,
                NioSocketChannel.class);
    }

    /** Checks the channel classes {@link NettyLoops} gives for {@code group}, then shuts it down. */
    private static void assertChannels(EventLoopGroup group, Class<?> server, Class<?> socket) {
        try {
            assertEquals(server, NettyLoops.serverChannel(group));
            assertEquals(socket, NettyLoops.socketChannel(group));
        } finally {
            group.shutdownGracefully();
        }
    }

    /**
     * The path of a commit's reply: completed off the event loop, it reaches the connection as a task, and the replies
     * of one log entry queue up together. Three such writes, each flushed, reach the socket in one flush.
     */
    @Test
    void repliesHandedToTheLoopTogetherLeaveInOneFlush() throws Exception {
        EventLoopGroup loops = new DefaultEventLoopGroup(1, new DefaultThreadFactory("test-local", true));
        AtomicInteger flushes = new AtomicInteger();
        LocalAddress address = new LocalAddress("netty-loops-test");
        try {
            new ServerBootstrap()
                    .group(loops)
                    .channel(LocalServerChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext context, Object message) {
                            ReferenceCountUtil.release(message);
                        }
                    })
                    .bind(address)
                    .sync();
            Channel connection = new Bootstrap()
                    .group(loops)
                    .channel(LocalChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            channel.pipeline().addLast(new LengthFieldPrepender(4));
                            NettyLoops.consolidateFlushes(channel.pipeline());
                            channel.pipeline().addFirst("count", countFlushes(flushes));
                        }
                    })
                    .connect(address)
                    .sync()
                    .channel();
            CountDownLatch busy = new CountDownLatch(1);
            connection.eventLoop().execute(() -> awaitQuietly(busy)); // the loop is busy: what follows queues up
            for (int reply = 0; reply < 3; reply++) {
                connection.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) reply}));
            }
            busy.countDown();
            // A task queued behind the three writes queues one more: that runs after the flush they scheduled.
            Future<Future<?>> behind =
                    connection.eventLoop().submit(() -> connection.eventLoop().submit(() -> {}));
            behind.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);

            assertEquals(1, flushes.get(), "three replies queued together leave in one flush");
        } finally {
            loops.shutdownGracefully().sync();
        }
    }

    private static ChannelOutboundHandlerAdapter countFlushes(AtomicInteger flushes) {
        return new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext context) {
                flushes.incrementAndGet();
                context.flush();
            }
        };
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
        channel.pipeline().addFirst("count", countFlushes(flushes));

        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));

        assertEquals(1, flushes.get(), "three replies written during one read leave in one flush, at its end");
        assertEquals(6, channel.outboundMessages().size(), "each reply framed: its length, then itself");
        channel.finishAndReleaseAll();
    }
}
