package dev.duro.core.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SeededRuns;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The treap answers every range query as a sorted map walked key by key does, through adds and evictions. */
class OrderedWriteIndexTest {
    @Test
    void rangeQueriesMatchASortedMapWalk() {
        SeededRuns.forSeeds(5_000, 200, random -> {
            OrderedWriteIndex index = new OrderedWriteIndex();
            TreeMap<Bytes, Long> naive = new TreeMap<>();
            RandomTransactions generate = new RandomTransactions(random, 8 + random.nextInt(300));
            long number = 0;
            for (int step = 0; step < 800; step++) {
                int roll = random.nextInt(4);
                if (roll == 0) {
                    Bytes[] keys = generate.keys(4).toArray(new Bytes[0]);
                    index.add(keys, ++number);
                    for (Bytes key : keys) {
                        naive.put(key, number);
                    }
                } else if (roll == 1 && number > 0) {
                    Bytes[] keys = generate.keys(6).toArray(new Bytes[0]);
                    long evicted = 1 + random.nextInt((int) number);
                    index.evict(keys, evicted);
                    for (Bytes key : keys) {
                        naive.computeIfPresent(key, (k, newest) -> newest <= evicted ? null : newest);
                    }
                } else {
                    for (KeyRange range : generate.ranges(1)) {
                        long snapshot = random.nextInt((int) number + 1);
                        assertEquals(walk(naive, range, snapshot), index.firstWrittenAfter(range, snapshot));
                    }
                }
                assertEquals(naive.size(), index.size());
            }
        });
    }

    private static OrderedWriteIndex.Written walk(TreeMap<Bytes, Long> naive, KeyRange range, long snapshot) {
        Map<Bytes, Long> inRange =
                range.to() == null ? naive.tailMap(range.from(), true) : naive.subMap(range.from(), range.to());
        for (Map.Entry<Bytes, Long> entry : inRange.entrySet()) {
            if (entry.getValue() > snapshot) {
                return new OrderedWriteIndex.Written(entry.getKey(), entry.getValue());
            }
        }
        return null;
    }
}
