package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The open-addressed table finds, adds and removes chains exactly as a hash map of key to chain does, through its
 * growth and through removals in the middle of long probe runs, whose shifting back is what keeps later chains
 * findable.
 */
class ChainTableTest {
    @Test
    void matchesAHashMapThroughGrowthAndRemovals() {
        SeededRuns.forSeeds(61_000, 100, random -> run(random, 20_000));
    }

    private static void run(Random random, int steps) {
        ChainTable table = new ChainTable();
        Map<Bytes, VersionChain> naive = new HashMap<>();
        List<Bytes> present = new ArrayList<>();
        // A small key space keeps the table full of runs; a large one makes it grow.
        int keySpace = random.nextBoolean() ? 64 : 5_000;
        for (int step = 0; step < steps; step++) {
            Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
            int roll = random.nextInt(10);
            if (roll < 5 && !naive.containsKey(key)) {
                VersionChain chain = new VersionChain(key, 1, key);
                table.add(chain);
                naive.put(key, chain);
                present.add(key);
            } else if (roll < 8 && !present.isEmpty()) {
                int at = random.nextInt(present.size());
                Bytes removed = present.get(at);
                present.set(at, present.get(present.size() - 1));
                present.remove(present.size() - 1);
                table.remove(naive.remove(removed));
            }
            // a copy of the key, as a decoded request would bring it
            Bytes probe = Bytes.copyOf(key.unsafeArray());
            assertSame(naive.get(key), table.get(probe), "chain of " + key + " at step " + step);
            assertEquals(naive.size(), table.size());
        }
        Map<VersionChain, Boolean> seen = new IdentityHashMap<>();
        table.forEach(chain -> assertNull(seen.put(chain, true), "chain visited twice: " + chain.key));
        assertEquals(naive.size(), seen.size());
        for (VersionChain chain : naive.values()) {
            assertEquals(true, seen.get(chain), "chain not visited: " + chain.key);
        }
    }

    @Test
    void removingAChainItDoesNotHoldFails() {
        ChainTable table = new ChainTable();
        Bytes key = Bytes.utf8("held");
        table.add(new VersionChain(key, 1, key));
        VersionChain stranger = new VersionChain(key, 1, key);
        assertThrows(IllegalStateException.class, () -> table.remove(stranger));
        assertEquals(1, table.size());
    }
}
