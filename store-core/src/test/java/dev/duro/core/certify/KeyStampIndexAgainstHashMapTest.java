package dev.duro.core.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import java.util.HashMap;
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
            for (int k = 0; k < Math.min(keySpace, 10); k++) {
                Bytes probe = Bytes.utf8("k" + random.nextInt(keySpace));
                long[] expected = naive.get(probe);
                int at = index.find(probe);
                assertEquals(expected == null, at < 0, "presence of " + probe);
                if (expected != null) {
                    assertEquals(expected[0], index.lastWrite(at), "last write of " + probe);
                    assertEquals(expected[1], index.lastRead(at), "last read of " + probe);
                }
            }
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
            for (int k = 0; k < Math.min(keySpace, 20); k++) {
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
}
