package dev.duro.core.wire;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Limits;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.Fuzz;
import dev.duro.core.node.PeerMessageCodec;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Any byte string fed to {@link WireCodec#decode} yields a message or a typed error, never another exception, a
 * hang or an allocation out of proportion to the input ({@link Fuzz} checks each decode).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WireCodecFuzzTest {
    private static final WireCodec CODEC = PeerMessageCodec.wireCodec(Limits.DEFAULT);
    /** Small limits reach the limit checks from short random input too. */
    private static final WireCodec STRICT = PeerMessageCodec.wireCodec(new Limits(8, 16, 5));

    private static final Fuzz.Decoder DECODE = CODEC::decode;
    private static final Fuzz.Decoder DECODE_STRICT = STRICT::decode;

    private static byte[] header(MessageType type) {
        return new byte[] {(byte) WireCodec.PROTOCOL_VERSION, (byte) type.code()};
    }

    /**
     * A random valid frame of at most 16 KiB: large enough for maximum-size keys, small enough that trying many
     * corruptions of each stays fast (the round-trip tests cover the huge messages).
     */
    private static byte[] frame(MessageGen gen) {
        while (true) {
            byte[] frame = CODEC.encode(gen.any());
            if (frame.length <= 16 * 1024) {
                return frame;
            }
        }
    }

    @Test
    void randomBytes() {
        Random random = new Random(21);
        MessageType[] types = MessageType.values();
        for (int i = 0; i < 40_000; i++) {
            int maxLength = i % 20 == 0 ? 1024 : 64;
            // Most random frames would stop at the version byte; give most of them a valid header.
            byte[] input = i % 4 == 0
                    ? Fuzz.randomBytes(random, maxLength)
                    : Fuzz.randomAfter(random, header(types[random.nextInt(types.length)]), maxLength);
            Fuzz.decode(i % 2 == 0 ? DECODE : DECODE_STRICT, input);
        }
    }

    @Test
    void everyTruncationOfAValidFrameIsMalformed() {
        MessageGen gen = new MessageGen(22, Limits.DEFAULT);
        for (int i = 0; i < 600; i++) {
            byte[] frame = frame(gen);
            for (byte[] prefix : Fuzz.truncations(frame, gen.gen().random(), 300)) {
                Fuzz.assertMalformed(DECODE, prefix);
            }
        }
    }

    @Test
    void corruptedFrames() {
        MessageGen gen = new MessageGen(23, Limits.DEFAULT);
        int decoded = 0;
        for (int i = 0; i < 3_000; i++) {
            byte[] frame = frame(gen);
            for (int j = 0; j < 10; j++) {
                if (Fuzz.decode(
                                j % 2 == 0 ? DECODE : DECODE_STRICT,
                                Fuzz.mutate(frame, gen.gen().random()))
                        == null) {
                    decoded++;
                }
            }
        }
        // Many corruptions hit payload bytes and still decode: the fuzzing reaches well past the header.
        assertTrue(decoded > 1_000, "only " + decoded + " corrupted frames decoded");
    }

    @Test
    void forgedHugeCountsAndLengthsAreRejectedCheaply() {
        MessageGen gen = new MessageGen(24, Limits.DEFAULT);
        long start = System.nanoTime();
        int forgeries = 0;
        for (int i = 0; i < 400; i++) {
            for (byte[] forged : Fuzz.forgeHugeNumbers(frame(gen), gen.gen().random(), 150)) {
                Fuzz.decode(DECODE, forged);
                forgeries++;
            }
        }
        long micros = (System.nanoTime() - start) / 1_000 / forgeries;
        assertTrue(micros < 1_000, "a forged frame took " + micros + " µs on average to reject");
    }

    @Test
    void handForgedCountsAndLengths() {
        long[] huge = {Integer.MAX_VALUE, 1L << 40, -1};
        for (long count : huge) {
            // A count or length right after each message's fixed prefix, with almost nothing behind it.
            for (MessageType type : MessageType.values()) {
                if (type == MessageType.ERROR_REPLY) {
                    continue; // its first field is the error code, where any number is readable
                }
                ByteWriter out = new ByteWriter().writeRaw(header(type));
                if (type.hasRequestId()) {
                    out.writeVarLong(1);
                }
                out.writeVarLong(count).writeByte(0);
                Fuzz.assertMalformed(DECODE, out.toByteArray());
            }
            ByteWriter commit = new ByteWriter().writeRaw(header(MessageType.COMMIT_TRANSACTION));
            commit.writeVarLong(1)
                    .writeLong(1)
                    .writeLong(1)
                    .writeVarLong(1)
                    .writeVarLong(0)
                    .writeVarLong(0);
            Fuzz.assertMalformed(DECODE, commit.writeVarLong(count).toByteArray());
            ByteWriter info = new ByteWriter().writeRaw(header(MessageType.CLUSTER_INFO_REPLY));
            info.writeVarLong(1).writeUtf8("c").writeVarLong(1).writeByte(1).writeVarLong(count);
            Fuzz.assertMalformed(DECODE, info.toByteArray());
            ByteWriter error = new ByteWriter().writeRaw(header(MessageType.ERROR_REPLY));
            error.writeVarLong(1).writeVarLong(1).writeVarLong(count).writeByte('x');
            Fuzz.assertMalformed(DECODE, error.toByteArray());
        }
    }
}
