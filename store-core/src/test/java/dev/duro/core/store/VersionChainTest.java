package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import dev.duro.core.VersionedValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The ring of versions holds, reads and collects exactly as a plain list of (version, value) does, through the
 * ring's wrapping, growing and shrinking, and copies stay as they were.
 */
class VersionChainTest {
    private record Entry(long version, Bytes value) {}

    @Test
    void matchesAListThroughAppendsCollectionsAndCopies() {
        SeededRuns.forSeeds(8_000, 300, random -> run(random, 2_000));
    }

    private static void run(Random random, int steps) {
        long version = 1;
        Bytes first = Bytes.utf8("v1");
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
                    Bytes value = random.nextInt(8) == 0 ? null : Bytes.utf8("v" + version);
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
                Bytes value = random.nextBoolean() ? null : Bytes.utf8("r" + step);
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
