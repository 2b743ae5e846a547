package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.Outcome;
import dev.duro.core.SeededRuns;
import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ring-and-table of retained outcomes behaves as an insertion-ordered map evicting its eldest entry. */
class RetainedOutcomesAgainstLinkedHashMapTest {
    @Test
    void lookupsAndOrderMatchALinkedHashMap() {
        SeededRuns.forSeeds(8_000, 200, random -> run(random, 1 + random.nextInt(200), 2_000));
    }

    private static void run(Random random, int retained, int steps) {
        RetainedOutcomes outcomes = new RetainedOutcomes();
        LinkedHashMap<TxId, Decided> naive = new LinkedHashMap<>();
        LinkedHashMap<TxId, Long> naivePscBefore = new LinkedHashMap<>();
        List<Decided> values = List.of(Decided.unfinished(3, 2), Decided.unfinished(0, 1), decided(1), decided(2));
        long next = 1;
        for (int step = 0; step < steps; step++) {
            // Fresh instances: lookups must match by value.
            TxId tid = new TxId(random.nextInt(3), random.nextInt(4) == 0 ? 1 + random.nextInt((int) next) : next++);
            Decided value = values.get(random.nextInt(values.size()));
            if (random.nextBoolean()) {
                long pscBefore = random.nextInt(1_000);
                outcomes.put(tid, value, pscBefore);
                naive.put(tid, value);
                naivePscBefore.putIfAbsent(tid, pscBefore);
            } else {
                outcomes.replace(tid, value);
                naive.replace(tid, value);
            }
            Iterator<TxId> eldest = naive.keySet().iterator();
            while (naive.size() > retained) {
                TxId oldest = eldest.next();
                assertEquals(oldest, outcomes.oldest());
                assertEquals(naivePscBefore.remove(oldest), outcomes.oldestPscBefore());
                eldest.remove();
                outcomes.removeOldest();
            }
            assertEquals(naive.size(), outcomes.size());
            TxId probe = new TxId(random.nextInt(3), 1 + random.nextInt((int) next));
            assertEquals(naive.get(probe), outcomes.get(probe), "outcome of " + probe);
        }
        List<Map.Entry<TxId, Decided>> inOrder = new ArrayList<>();
        outcomes.forEach((tid, known, pscBefore) -> inOrder.add(Map.entry(tid, known)));
        assertEquals(new ArrayList<>(naive.entrySet()), inOrder);
    }

    private static Decided decided(long number) {
        return new Decided(
                Outcome.committed(new TxId(9, number), List.of(0), List.of(number)), null, number, 1, List.of());
    }
}
