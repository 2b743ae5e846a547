package dev.duro.server;

import dev.duro.core.wire.Message;
import dev.duro.core.wire.WireCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;

/**
 * The framing of Duro's TCP protocol: each frame is a 4-byte big-endian length followed by one
 * {@link WireCodec} message. Frames longer than the limit are refused before they are buffered.
 */
final class WireFrames {
    private WireFrames() {}

    static void install(ChannelPipeline pipeline, int frameBytesMax) {
        pipeline.addLast("frame-decoder", new LengthFieldBasedFrameDecoder(frameBytesMax, 0, 4, 0, 4));
        pipeline.addLast("frame-encoder", new LengthFieldPrepender(4));
    }

    static ByteBuf encode(WireCodec codec, Message message) {
        return Unpooled.wrappedBuffer(codec.encode(message));
    }

    static byte[] bytes(ByteBuf frame) {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        return bytes;
    }
}
