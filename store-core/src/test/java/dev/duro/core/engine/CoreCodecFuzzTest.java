package dev.duro.core.engine;

import dev.duro.core.Limits;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.Fuzz;
import dev.duro.core.codec.Gen;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command decoder under arbitrary input: a command or a typed error, never anything else. */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CoreCodecFuzzTest {
    private static final Limits LIMITS = Limits.DEFAULT;
    private static final CoreCodec CODEC = new CoreCodec(LIMITS);

    private static Command decode(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        Command command = CODEC.readCommand(in);
        in.expectEnd("command");
        return command;
    }

    private static byte[] encode(Command command) {
        ByteWriter out = new ByteWriter();
        CODEC.writeCommand(out, command);
        return out.toByteArray();
    }

    @Test
    void randomBytes() {
        Random random = new Random(11);
        byte[][] headers = {{}, {1}, {2}};
        for (int i = 0; i < 20_000; i++) {
            Fuzz.decode(CoreCodecFuzzTest::decode, Fuzz.randomAfter(random, headers[i % 3], i % 10 == 0 ? 512 : 48));
        }
    }

    @Test
    void everyTruncationOfAValidCommandIsMalformed() {
        Gen gen = new Gen(12, LIMITS);
        for (int i = 0; i < 300; i++) {
            for (byte[] prefix : Fuzz.truncations(encode(gen.command()), gen.random(), 400)) {
                Fuzz.assertMalformed(CoreCodecFuzzTest::decode, prefix);
            }
        }
    }

    @Test
    void corruptedCommands() {
        Gen gen = new Gen(13, LIMITS);
        for (int i = 0; i < 2_000; i++) {
            byte[] valid = encode(gen.command());
            for (int j = 0; j < 10; j++) {
                Fuzz.decode(CoreCodecFuzzTest::decode, Fuzz.mutate(valid, gen.random()));
            }
        }
    }

    @Test
    void forgedHugeCountsAndLengthsAreRejectedCheaply() {
        Gen gen = new Gen(14, LIMITS);
        for (int i = 0; i < 300; i++) {
            for (byte[] forged : Fuzz.forgeHugeNumbers(encode(gen.command()), gen.random(), 200)) {
                Fuzz.decode(CoreCodecFuzzTest::decode, forged);
            }
        }
    }
}
