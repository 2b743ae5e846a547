package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The ring of versions holds, reads and collects exactly as a plain list of (version, value) does, through the
 * ring's wrapping, growing and shrinking, and copies stay as they were; values of every length, held inside the chain
 * (up to {@link VersionChain#INLINE_MAX} bytes, the empty value included) or as arrays, read back and write out as
 * they were given.
 */
class VersionChainTest {
    private record Entry(long version, Bytes value) {}

    @Test
    void matchesAListThroughAppendsCollectionsAndCopies() {
        SeededRuns.forSeeds(8_000, 300, random -> run(random, 2_000));
    }

    private static void run(Random random, int steps) {
        long version = 1;
        Bytes first = value(random, version);
        VersionChain chain = new VersionChain(Bytes.utf8("key"), version, first);
        List<Entry> naive = new ArrayList<>(List.of(new Entry(version, first)));
        long horizon = 0;
        VersionChain copy = null;
        List<Entry> copied = null;
        for (int step = 0; step < steps && !naive.isEmpty(); step++) {
            int roll = random.nextInt(10);
            if (roll < 5) {
                // bursts of appends grow the ring; a tombstone now and then
                for (int n = random.nextInt(random.nextInt(8) == 0 ? 40 : 3); n >= 0; n--) {
                    version += 1 + random.nextInt(3);
                    Bytes value = random.nextInt(8) == 0 ? null : value(random, version);
                    chain.append(version, value);
                    naive.add(new Entry(version, value));
                }
            } else if (roll < 8) {
                horizon = Math.max(horizon, version - random.nextInt(30));
                boolean emptied = chain.collectBelow(horizon);
                collect(naive, horizon);
                assertEquals(naive.isEmpty(), emptied, "emptied at horizon " + horizon);
            } else if (roll == 8) {
                copy = chain.copy();
                copied = List.copyOf(naive);
            } else {
                Bytes value = random.nextBoolean() ? null : value(random, step);
                chain.replaceNewest(value);
                Entry newest = naive.remove(naive.size() - 1);
                naive.add(new Entry(newest.version(), value));
            }
            assertSame(naive, chain, random, horizon);
            if (copy != null && copied != null) {
                assertSame(copied, copy, random, 0);
            }
        }
    }

    /**
     * A value of a length around {@link VersionChain#INLINE_MAX}, now and then empty or long, whose bytes (all of
     * them, the high bit set too) depend on {@code seed}.
     */
    private static Bytes value(Random random, long seed) {
        int length = random.nextInt(6) == 0 ? random.nextInt(40) : random.nextInt(VersionChain.INLINE_MAX + 3);
        byte[] raw = new byte[length];
        for (int i = 0; i < length; i++) {
            raw[i] = (byte) (seed * 31 + i * 0x9D + random.nextInt(256));
        }
        return Bytes.wrap(raw);
    }

    /** What collection must leave: from the newest version at or below the horizon on, without it if a tombstone. */
    private static void collect(List<Entry> naive, long horizon) {
        int keepFrom = -1;
        for (int i = 0; i < naive.size() && naive.get(i).version() <= horizon; i++) {
            keepFrom = i;
        }
        if (keepFrom < 0) {
            return;
        }
        if (naive.get(keepFrom).value() == null) {
            keepFrom++;
        }
        naive.subList(0, keepFrom).clear();
    }

    private static void assertSame(List<Entry> naive, VersionChain chain, Random random, long horizon) {
        assertEquals(naive.size(), chain.size());
        for (int i = 0; i < naive.size(); i++) {
            assertEquals(naive.get(i).version(), chain.versionAt(i), "version at " + i);
            assertEquals(naive.get(i).value(), chain.valueAt(i), "value at " + i);
            ByteWriter written = new ByteWriter();
            chain.writeValueAt(i, written);
            assertArrayEquals(
                    new ByteWriter().writeNullableBytes(naive.get(i).value()).toByteArray(),
                    written.toByteArray(),
                    "value written at " + i);
        }
        if (naive.isEmpty()) {
            assertThrows(IllegalStateException.class, chain::newestVersion);
            return;
        }
        assertEquals(naive.get(naive.size() - 1).version(), chain.newestVersion());
        long newest = naive.get(naive.size() - 1).version();
        for (int probe = 0; probe < 5; probe++) {
            long snapshot = horizon + random.nextInt((int) Math.max(1, newest - horizon + 3));
            Entry expected = null;
            for (Entry entry : naive) {
                if (entry.version() <= snapshot) {
                    expected = entry;
                }
            }
            VersionedValue read = chain.read(snapshot);
            if (expected == null || expected.value() == null) {
                assertEquals(VersionedValue.ABSENT, read, "read at " + snapshot);
            } else {
                assertEquals(new VersionedValue(expected.value(), expected.version()), read, "read at " + snapshot);
            }
        }
    }
}
