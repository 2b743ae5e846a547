package dev.duro.core.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The open-addressing index answers every lookup as a plain map of key → (last write, last read) does. */
class KeyStampIndexAgainstHashMapTest {
    @Test
    void lookupsMatchAHashMapThroughInsertsUpdatesAndRemovals() {
        SeededRuns.forSeeds(7_000, 200, random -> run(random, 1 + random.nextInt(300), 3_000));
    }

    @Test
    void sweepsRemoveExactlyTheEntriesAtOrBelowTheBoundAndGrowOnlyWhenStillFull() {
        SeededRuns.forSeeds(7_500, 200, random -> sweep(random, 1 + random.nextInt(2_000), 5_000));
    }

    /**
     * A probe run that wraps from the table's last slot to its first, swept: the entries after a removed one move back
     * across the end of the array, and every entry left is still found with its numbers.
     */
    @Test
    void aSweepKeepsAProbeRunThatWrapsAroundTheEndReachable() {
        List<Bytes> atLast = keysWithHome(15, 7); // the initial table has 16 slots: they take 15, 0, 1, ..., 5
        Bytes atFirst = keysWithHome(0, 1).get(0); // its home is taken: it goes to slot 6, past the wrapped run
        KeyStampIndex index = new KeyStampIndex();
        Map<Bytes, Long> kept = new HashMap<>();
        List<Bytes> all = new ArrayList<>(atLast);
        all.add(atFirst);
        for (int i = 0; i < all.size(); i++) {
            long number = i % 3 == 0 ? 1 : 10 + i; // the 1st, 4th, 7th (and so the one in slot 15) are stale
            index.setLastWrite(index.findOrInsert(all.get(i)), number);
            if (number > 5) {
                kept.put(all.get(i), number);
            }
        }
        assertEquals(16, index.capacity(), "no growth: the run must wrap in the table of 16");
        assertEquals(all.size() - kept.size(), index.removeStale(5));
        assertEquals(kept.size(), index.size());
        for (Bytes key : all) {
            int slot = index.find(key);
            assertEquals(kept.containsKey(key), slot >= 0, "presence of " + key);
            if (slot >= 0) {
                assertEquals(kept.get(key), index.lastWrite(slot), "last write of " + key);
            }
        }
    }

    private static List<Bytes> keysWithHome(int home, int count) {
        List<Bytes> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            Bytes key = Bytes.utf8("w" + i);
            if ((key.hashCode() & 15) == home) {
                keys.add(key);
            }
        }
        return keys;
    }

    /**
     * Inserts through findOrInsert with a moving bound, as the window does, and now and then sweeps directly: the
     * index must hold exactly the map's entries above the bound of its last sweep or newer, whatever the layout.
     */
    private static void sweep(Random random, int keySpace, int steps) {
        KeyStampIndex index = new KeyStampIndex();
        Map<Bytes, long[]> naive = new HashMap<>();
        int window = 1 + random.nextInt(200);
        for (int step = 1; step <= steps; step++) {
            long stale = step - window;
            Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
            int before = index.capacity();
            boolean full = index.size() >= before >> 1;
            int slot = index.findOrInsert(key, KeyInterner.AS_GIVEN, stale);
            if (full) {
                naive.values().removeIf(stamps -> stamps[0] <= stale && stamps[1] <= stale);
                // it swept first, then doubled only if a quarter of the table was still in use
                assertEquals(naive.size() >= before >> 2, index.capacity() > before, "grew at step " + step);
            }
            long[] stamps = naive.computeIfAbsent(key, k -> new long[2]);
            stamps[random.nextBoolean() ? 0 : 1] = step;
            index.setLastWrite(slot, stamps[0]);
            index.setLastRead(slot, stamps[1]);
            if (random.nextInt(50) == 0) {
                long bound = step - random.nextInt(2 * window);
                int expectedRemoved = (int) naive.values().stream()
                        .filter(s -> s[0] <= bound && s[1] <= bound)
                        .count();
                assertEquals(expectedRemoved, index.removeStale(bound), "removed at bound " + bound);
                naive.values().removeIf(s -> s[0] <= bound && s[1] <= bound);
            }
            assertEquals(naive.size(), index.size());
            assertEquals(
                    naive.values().stream()
                            .filter(s -> s[0] > stale || s[1] > stale)
                            .count(),
                    index.liveCount(stale));
            assertProbesMatch(index, naive, random, keySpace, 10);
        }
    }

    private static void run(Random random, int keySpace, int steps) {
        KeyStampIndex index = new KeyStampIndex();
        Map<Bytes, long[]> naive = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            // A fresh instance each time: the index must match by content, not by reference.
            Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
            int roll = random.nextInt(3);
            if (roll == 0) {
                long number = step + 1;
                int slot = index.findOrInsert(key);
                long[] stamps = naive.computeIfAbsent(key, k -> new long[2]);
                if (random.nextBoolean()) {
                    index.setLastWrite(slot, number);
                    stamps[0] = number;
                } else {
                    index.setLastRead(slot, number);
                    stamps[1] = number;
                }
            } else if (roll == 1) {
                int slot = index.find(key);
                if (slot >= 0) {
                    index.removeAt(slot);
                }
                naive.remove(key);
            }
            assertEquals(naive.size(), index.size());
            assertProbesMatch(index, naive, random, keySpace, 20);
        }
    }

    /** Looks up {@code probes} random keys (fresh instances) in both and compares presence and numbers. */
    private static void assertProbesMatch(
            KeyStampIndex index, Map<Bytes, long[]> naive, Random random, int keySpace, int probes) {
        for (int k = 0; k < Math.min(keySpace, probes); k++) {
            Bytes probe = Bytes.utf8("k" + random.nextInt(keySpace));
            long[] expected = naive.get(probe);
            int slot = index.find(probe);
            assertEquals(expected == null, slot < 0, "presence of " + probe);
            if (expected != null) {
                assertEquals(expected[0], index.lastWrite(slot), "last write of " + probe);
                assertEquals(expected[1], index.lastRead(slot), "last read of " + probe);
            }
        }
    }
}
