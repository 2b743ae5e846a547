package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import dev.duro.core.TxId;
import dev.duro.core.codec.MalformedInputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The forgotten-id filter sets the bits Guava's {@code BloomFilter<TxId>} set, and is written as Guava wrote it, so
 * snapshots of earlier builds restore to the same answers and are written back byte for byte.
 */
class TxIdFilterTest {
    /** How earlier builds fed an id to Guava's hashing. */
    private static final Funnel<TxId> EARLIER_FUNNEL =
            (tid, into) -> into.putLong(tid.clientId()).putLong(tid.sequence());

    @Test
    void itSetsAndWritesTheBitsGuavaDid() throws IOException {
        Random random = new Random(11);
        for (int round = 0; round < 40; round++) {
            int capacity = 1 + random.nextInt(round < 20 ? 200 : 70_000);
            BloomFilter<TxId> guava = BloomFilter.create(EARLIER_FUNNEL, capacity, ForgottenIds.FALSE_POSITIVE_RATE);
            TxIdFilter filter = TxIdFilter.create(capacity, ForgottenIds.FALSE_POSITIVE_RATE);
            int ids = random.nextInt(2 * capacity + 1);
            for (int i = 0; i < ids; i++) {
                TxId tid = randomId(random);
                guava.put(tid);
                filter.put(tid);
            }
            assertArrayEquals(guavaBytes(guava), filter.toBytes(), "capacity " + capacity + ", " + ids + " ids");
            for (int probe = 0; probe < 2_000; probe++) {
                TxId tid = randomId(random);
                assertEquals(guava.mightContain(tid), filter.mightContain(tid), tid + " at capacity " + capacity);
            }
        }
    }

    @Test
    void aFilterGuavaWroteReadsBackToTheSameAnswers() throws IOException {
        Random random = new Random(12);
        BloomFilter<TxId> guava = BloomFilter.create(EARLIER_FUNNEL, 1 << 16, ForgottenIds.FALSE_POSITIVE_RATE);
        TxId[] added = new TxId[5_000];
        for (int i = 0; i < added.length; i++) {
            added[i] = randomId(random);
            guava.put(added[i]);
        }
        TxIdFilter read = TxIdFilter.fromBytes(guavaBytes(guava));

        for (TxId tid : added) {
            assertTrue(read.mightContain(tid), "no false negative for " + tid);
        }
        for (int probe = 0; probe < 20_000; probe++) {
            TxId tid = randomId(random);
            assertEquals(guava.mightContain(tid), read.mightContain(tid));
        }
        assertArrayEquals(guavaBytes(guava), read.toBytes());
        assertArrayEquals(read.toBytes(), TxIdFilter.fromBytes(read.toBytes()).toBytes());
    }

    @Test
    void aCopyGoesItsOwnWay() {
        TxIdFilter filter = TxIdFilter.create(1_000, ForgottenIds.FALSE_POSITIVE_RATE);
        filter.put(new TxId(1, 1));
        TxIdFilter copy = filter.copy();
        copy.put(new TxId(2, 2));

        assertTrue(copy.mightContain(new TxId(1, 1)));
        assertTrue(copy.mightContain(new TxId(2, 2)));
        assertFalse(Arrays.equals(filter.toBytes(), copy.toBytes()), "the copy's new id is not in the original");
    }

    @Test
    void malformedFiltersAreRefusedNamingWhatIsWrong() {
        byte[] good = TxIdFilter.create(100, ForgottenIds.FALSE_POSITIVE_RATE).toBytes();

        assertRefused(Arrays.copyOf(good, 5), "below its header");
        assertRefused(Arrays.copyOf(good, good.length - 1), "longs in");
        assertRefused(withByte(good, 0, (byte) 0), "hashing strategy 0");
        assertRefused(withByte(good, 1, (byte) 0), "no hash function");
        byte[] hugeCount = good.clone();
        ByteBuffer.wrap(hugeCount).putInt(2, Integer.MAX_VALUE);
        assertRefused(hugeCount, "longs in");
        byte[] negativeCount = good.clone();
        ByteBuffer.wrap(negativeCount).putInt(2, -1);
        assertRefused(negativeCount, "longs in");
    }

    @Test
    void aFilterNeedsABitAndAtMost255HashFunctionsAndARateBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> TxIdFilter.create(0, 0.01));
        assertThrows(IllegalArgumentException.class, () -> TxIdFilter.create(10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> TxIdFilter.create(10, 0.0));
        assertThrows(IllegalArgumentException.class, () -> TxIdFilter.create(1, 0.99), "not one bit");
        assertThrows(IllegalArgumentException.class, () -> TxIdFilter.create(1, 1e-200), "over 255 hash functions");
    }

    private static void assertRefused(byte[] raw, String named) {
        MalformedInputException refused = assertThrows(MalformedInputException.class, () -> TxIdFilter.fromBytes(raw));
        assertTrue(refused.getMessage().contains(named), refused.getMessage());
    }

    private static byte[] withByte(byte[] raw, int at, byte value) {
        byte[] changed = raw.clone();
        changed[at] = value;
        return changed;
    }

    private static TxId randomId(Random random) {
        // Both small ids (as clients number them) and arbitrary longs, negative ones included.
        return random.nextBoolean()
                ? new TxId(random.nextInt(64), random.nextInt(1 << 20))
                : new TxId(random.nextLong(), random.nextLong());
    }

    private static byte[] guavaBytes(BloomFilter<TxId> filter) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        filter.writeTo(out);
        return out.toByteArray();
    }
}
