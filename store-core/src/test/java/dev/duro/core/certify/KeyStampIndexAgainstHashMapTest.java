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
