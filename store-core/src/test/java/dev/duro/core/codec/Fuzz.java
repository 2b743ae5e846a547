package dev.duro.core.codec;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.management.ThreadMXBean;
import dev.duro.core.DuroException;
import dev.duro.core.LimitExceededException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.annotation.Nullable;

/**
 * Tools for the decoder fuzz properties: any byte string yields a value or a typed {@link DuroException}, never
 * another exception, a hang or an allocation out of proportion to the input.
 */
public final class Fuzz {
    /** Generous: a decoder may build a few objects per input byte, but never megabytes from a short input. */
    private static final long ALLOCATION_SLACK = 1 << 20;

    private static final long ALLOCATION_PER_INPUT_BYTE = 256;

    private static final long[] HUGE = {
        4_096, 10_001, 65_536, Integer.MAX_VALUE, 1L << 32, 1L << 62, Long.MAX_VALUE, -1, Long.MIN_VALUE
    };

    private static final @Nullable ThreadMXBean THREADS = threads();

    private Fuzz() {}

    /** A decoder under test. */
    @FunctionalInterface
    public interface Decoder {
        Object decode(byte[] input);
    }

    private static @Nullable ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled()) {
            return threads;
        }
        return null;
    }

    public static boolean isTyped(Throwable error) {
        return error instanceof MalformedInputException
                || error instanceof LimitExceededException
                || error instanceof UnsupportedVersionException;
    }

    /**
     * Decodes {@code input}: returns null if it decoded, the typed error if it was rejected, and fails the test on
     * any other throwable or an excessive allocation.
     */
    public static @Nullable DuroException decode(Decoder decoder, byte[] input) {
        long before = allocatedBytes();
        DuroException rejected = null;
        try {
            decoder.decode(input);
        } catch (MalformedInputException | LimitExceededException | UnsupportedVersionException e) {
            rejected = e;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("untyped " + e + " decoding " + hex(input), e);
        }
        long allocated = allocatedBytes() - before;
        long allowed = ALLOCATION_SLACK + ALLOCATION_PER_INPUT_BYTE * input.length;
        if (allocated > allowed) {
            fail("decoding " + input.length + " bytes allocated " + allocated + " bytes: " + hex(input));
        }
        return rejected;
    }

    /** Like {@link #decode} but the input must be rejected as malformed. */
    public static void assertMalformed(Decoder decoder, byte[] input) {
        DuroException rejected = decode(decoder, input);
        assertTrue(
                rejected instanceof MalformedInputException,
                () -> "expected malformed, got " + rejected + " for " + hex(input));
    }

    private static long allocatedBytes() {
        return THREADS == null ? 0 : THREADS.getCurrentThreadAllocatedBytes();
    }

    public static byte[] randomBytes(Random random, int maxLength) {
        byte[] bytes = new byte[random.nextInt(maxLength + 1)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** {@code prefix} followed by random bytes, so fuzzing reaches past a header the decoder checks first. */
    public static byte[] randomAfter(Random random, byte[] prefix, int maxLength) {
        byte[] tail = randomBytes(random, maxLength);
        byte[] out = Arrays.copyOf(prefix, prefix.length + tail.length);
        System.arraycopy(tail, 0, out, prefix.length, tail.length);
        return out;
    }

    /** Every strict prefix when the input is short, otherwise {@code samples} random ones (always with 0 and 1). */
    public static List<byte[]> truncations(byte[] valid, Random random, int samples) {
        List<byte[]> out = new ArrayList<>();
        if (valid.length <= samples) {
            for (int length = 0; length < valid.length; length++) {
                out.add(Arrays.copyOf(valid, length));
            }
        } else {
            out.add(new byte[0]);
            out.add(Arrays.copyOf(valid, 1));
            out.add(Arrays.copyOf(valid, valid.length - 1));
            for (int i = 0; i < samples; i++) {
                out.add(Arrays.copyOf(valid, random.nextInt(valid.length)));
            }
        }
        return out;
    }

    /** One random corruption: flipped bits, a replaced byte, inserted or deleted bytes. */
    public static byte[] mutate(byte[] valid, Random random) {
        if (valid.length == 0) {
            return randomBytes(random, 8);
        }
        byte[] out = valid.clone();
        int at = random.nextInt(valid.length);
        switch (random.nextInt(5)) {
            case 0 -> out[at] ^= (byte) (1 << random.nextInt(8));
            case 1 -> out[at] = (byte) new int[] {0x00, 0x01, 0x7f, 0x80, 0xff}[random.nextInt(5)];
            case 2 -> out[at] = (byte) random.nextInt(256);
            case 3 -> {
                byte[] inserted = randomBytes(random, 4);
                out = new byte[valid.length + inserted.length];
                System.arraycopy(valid, 0, out, 0, at);
                System.arraycopy(inserted, 0, out, at, inserted.length);
                System.arraycopy(valid, at, out, at + inserted.length, valid.length - at);
            }
            default -> {
                int removed = 1 + random.nextInt(Math.min(4, valid.length - at));
                out = new byte[valid.length - removed];
                System.arraycopy(valid, 0, out, 0, at);
                System.arraycopy(valid, at + removed, out, at, valid.length - at - removed);
            }
        }
        return out;
    }

    /**
     * Copies of {@code valid} with a huge varint written over the bytes at each position (or {@code samples}
     * random positions when longer): wherever a count or length sits, some copy forges it.
     */
    public static List<byte[]> forgeHugeNumbers(byte[] valid, Random random, int samples) {
        List<byte[]> out = new ArrayList<>();
        int positions = Math.min(valid.length, samples);
        for (int i = 0; i < positions; i++) {
            int at = valid.length <= samples ? i : random.nextInt(valid.length);
            byte[] varint = new ByteWriter(16)
                    .writeVarLong(HUGE[random.nextInt(HUGE.length)])
                    .toByteArray();
            byte[] forged = Arrays.copyOf(valid, Math.max(valid.length, at + varint.length));
            System.arraycopy(varint, 0, forged, at, varint.length);
            out.add(forged);
        }
        return out;
    }

    public static String hex(byte[] input) {
        StringBuilder out = new StringBuilder("0x");
        for (int i = 0; i < Math.min(input.length, 96); i++) {
            out.append(Character.forDigit((input[i] >> 4) & 0xf, 16)).append(Character.forDigit(input[i] & 0xf, 16));
        }
        return input.length > 96 ? out + "…(" + input.length + " bytes)" : out.toString();
    }
}
