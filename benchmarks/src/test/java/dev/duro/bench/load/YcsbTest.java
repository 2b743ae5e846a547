package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class YcsbTest {
    @ParameterizedTest
    @CsvSource({"ycsb-a, 50", "ycsb-b, 5", "ycsb-c, 0"})
    void mixesReadsOfOneKeyWithBlindUpdatesOfOne(String name, int updatePercent) {
        List<TxPlan> plans = Fixtures.plans(Fixtures.options("--workload", name));
        assertEquals(updatePercent, Fixtures.percent(plans, TxKind.LOCAL), 1.5);
        assertEquals(0, Fixtures.percent(plans, TxKind.GLOBAL));
        for (TxPlan plan : plans) {
            if (plan.kind() == TxKind.READ_ONLY) {
                assertEquals(1, plan.reads().size());
            } else {
                assertEquals(List.of(), plan.reads());
                Map<Bytes, Bytes> writes = plan.writes(List.of());
                assertEquals(1, writes.size());
                assertEquals(Ycsb.VALUE_BYTES, writes.values().iterator().next().size());
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"0.99, 0.02", "0, 0"})
    void keysAreZipfianUnlessToldOtherwise(String zipf, double hottestShareMin) {
        String[] args = zipf.equals("0.99")
                ? new String[] {"--workload", "ycsb-c"}
                : new String[] {"--workload", "ycsb-c", "--zipf", zipf};
        Map<Bytes, Integer> counts = new HashMap<>();
        for (TxPlan plan : Fixtures.plans(Fixtures.options(args))) {
            counts.merge(plan.reads().get(0), 1, Integer::sum);
        }
        // zipf 0.99 over 1,000 keys: rank 0 draws about 14% of a partition's picks, 3.5% of all four.
        int hottest = counts.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        double share = (double) hottest / Fixtures.PLANS;
        assertTrue(share >= hottestShareMin, "hottest key share " + share);
        if (zipf.equals("0")) {
            assertTrue(share < 0.01, "uniform: hottest key share " + share);
        }
    }
}
