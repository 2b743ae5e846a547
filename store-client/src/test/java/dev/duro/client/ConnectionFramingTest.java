package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What every connection to a node starts with: consolidated flushes, then length-prefixed frames. */
class ConnectionFramingTest {
    /**
     * The sessions of a pool commit from their own threads: their requests reach the connection as tasks on its event
     * loop, outside any read, and those written in one turn of the loop leave in one flush.
     */
    @Test
    void requestsHandedToTheLoopTogetherLeaveInOneFlush() throws Exception {
        EventLoopGroup loop = new DefaultEventLoopGroup(1, new DefaultThreadFactory("test-loop", true));
        AtomicInteger flushes = new AtomicInteger();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        try {
            Channel connection = new LocalChannel();
            NodeConnection.frame(connection.pipeline(), null, 1024);
            assertEquals("flushes", connection.pipeline().names().get(0), "first, so that TLS records join too");
            // In place of the socket: counts the flushes that reach it and keeps the bytes written.
            connection.pipeline().addFirst("socket", new ChannelOutboundHandlerAdapter() {
                @Override
                public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) {
                    ByteBuf bytes = (ByteBuf) message;
                    byte[] copy = new byte[bytes.readableBytes()];
                    bytes.readBytes(copy);
                    bytes.release();
                    sent.writeBytes(copy);
                    promise.setSuccess();
                }

                @Override
                public void flush(ChannelHandlerContext context) {
                    flushes.incrementAndGet();
                }
            });
            loop.register(connection).sync();

            // One turn of the loop writes three requests, each flushed; the flush it schedules runs on a later turn,
            // before the task that the last one queues.
            connection
                    .eventLoop()
                    .submit(() -> {
                        for (int request = 0; request < 3; request++) {
                            connection.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) request}));
                        }
                        return connection.eventLoop().submit(() -> {});
                    })
                    .get(10, TimeUnit.SECONDS)
                    .get(10, TimeUnit.SECONDS);

            assertEquals(1, flushes.get(), "three requests written together leave in one flush");
            assertArrayEquals(new byte[] {0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 2}, sent.toByteArray(), "framed");
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void repliesAreReadWholeWhateverTheirSplit() {
        EmbeddedChannel channel = new EmbeddedChannel();
        NodeConnection.frame(channel.pipeline(), null, 1024);

        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 3, 7}));
        assertNull(channel.readInbound(), "a frame in part waits for the rest");
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {8, 9, 0, 0, 0, 1, 4}));

        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertEquals(Unpooled.wrappedBuffer(new byte[] {7, 8, 9}), first);
        assertEquals(Unpooled.wrappedBuffer(new byte[] {4}), second);
        first.release();
        second.release();
        channel.finishAndReleaseAll();
    }
}
