package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
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

    @Test
    void workloadEScansShortRangesAndInsertsNewKeysNextToKnownOnes() {
        assertSame(Workload.YCSB_E, Workload.named("E"));
        LoadOptions options = Fixtures.options("--workload", "E");
        Set<Bytes> known = new HashSet<>();
        KeySpace keys = Fixtures.keys(options);
        for (int p = 0; p < keys.partitions(); p++) {
            for (int rank = 0; rank < keys.keysPerPartition(); rank++) {
                known.add(keys.key(p, rank));
            }
        }
        List<TxPlan> plans = Fixtures.plans(options);
        assertEquals(5, Fixtures.percent(plans, TxKind.LOCAL), 1.5);
        assertEquals(95, Fixtures.percent(plans, TxKind.READ_ONLY), 1.5);
        int longest = 0;
        for (TxPlan plan : plans) {
            if (plan.kind() == TxKind.READ_ONLY) {
                TxPlan.Scan scan = plan.scan();
                assertTrue(known.contains(scan.from()), "a scan starts at a key of the key space");
                assertTrue(scan.limit() >= 1 && scan.limit() <= Ycsb.SCAN_KEYS_MAX, "limit " + scan.limit());
                longest = Math.max(longest, scan.limit());
                assertEquals(List.of(), plan.reads());
            } else {
                assertNull(plan.scan());
                Map<Bytes, Bytes> writes = plan.writes(List.of());
                Bytes inserted = writes.keySet().iterator().next();
                assertEquals(1, writes.size());
                assertFalse(known.contains(inserted), "an insert writes a new key");
                assertTrue(known.contains(Bytes.wrap(Arrays.copyOf(inserted.toByteArray(), inserted.size() - 4))));
                assertEquals(Ycsb.VALUE_BYTES, writes.get(inserted).size());
            }
        }
        assertEquals(Ycsb.SCAN_KEYS_MAX, longest);
    }
}
