package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadTest {
    @Test
    void everyWorkloadIsNamedListedAndProducesPlans() {
        for (Workload workload : Workload.values()) {
            assertSame(workload, Workload.named(workload.label()));
            assertSame(workload, Workload.named(workload.label().toUpperCase(Locale.ROOT)));
            assertTrue(Workload.list().contains(workload.label() + " "), workload.label());
            LoadOptions options = Fixtures.options("--workload", workload.label());
            assertEquals(workload.toString(), workload.label());
            assertTrue(Fixtures.plans(options).stream()
                    .allMatch(plan -> Fixtures.keysOf(plan).size() > 0));
        }
        assertSame(Workload.A, Workload.named("a"));
        assertThrows(IllegalArgumentException.class, () -> Workload.named("tpcc"));
        assertEquals(Workload.A, LoadOptions.parse(new String[0]).workload());
    }

    @Test
    void globalAndZipfDefaultToTheWorkloadsPaperUnlessGiven() {
        assertEquals(0, Fixtures.options("--workload", "A").globalPercent());
        assertEquals(15, Fixtures.options("--workload", "tpcb").globalPercent());
        assertEquals(50, Fixtures.options("--workload", "social").globalPercent());
        assertEquals(0, Fixtures.options("--workload", "tpcb", "--global", "0").globalPercent());
        assertEquals(
                0, Fixtures.options("--workload", "tpcb", "--partitions", "1").globalPercent());
        assertEquals(0.99, Fixtures.options("--workload", "ycsb-a").zipfSkew());
        assertEquals(
                0.0, Fixtures.options("--workload", "ycsb-a", "--zipf", "0").zipfSkew());
        assertEquals(0.0, Fixtures.options("--workload", "pdur-1").zipfSkew());
    }

    /** S-DUR's A–D and P-DUR's types I–III: read {@code reads} keys, overwrite the first {@code writes}. */
    @ParameterizedTest
    @CsvSource({
        "A, 4, 4, 4",
        "B, 2, 2, 1024",
        "C, 8, 0, 4",
        "D, 4, 0, 1024",
        "pdur-1, 2, 2, 4",
        "pdur-2, 32, 2, 4",
        "pdur-3, 16, 16, 4"
    })
    void readWriteWorkloadsHaveTheirPapersShape(String name, int reads, int writes, int valueBytes) {
        LoadOptions options = Fixtures.options("--workload", name, "--global", "20", "--global-partitions", "3");
        List<TxPlan> plans = Fixtures.plans(options);
        for (TxPlan plan : plans) {
            assertEquals(reads, plan.reads().size(), name);
            assertEquals(reads, plan.reads().stream().distinct().count(), "distinct reads");
            if (writes == 0) {
                assertEquals(TxKind.READ_ONLY, plan.kind());
                assertTrue(plan.writes(List.of()).isEmpty());
                continue;
            }
            Map<Bytes, Bytes> written = plan.writes(Fixtures.readsFrom(Map.of(), plan));
            assertEquals(plan.reads().subList(0, writes), List.copyOf(written.keySet()), "ws = first reads");
            assertTrue(written.values().stream().allMatch(value -> value.size() == valueBytes));
            long partitions = Fixtures.partitionsTouched(plan);
            assertEquals(plan.kind() == TxKind.GLOBAL ? Math.min(3, reads) : 1, partitions, name);
        }
        if (writes > 0) {
            assertEquals(20, Fixtures.percent(plans, TxKind.GLOBAL), 1.5);
        }
    }

    @Test
    void readOnlyWorkloadsSpreadGlobalReadsOverPartitionsToo() {
        List<TxPlan> plans = Fixtures.plans(Fixtures.options("--workload", "C", "--global", "50"));
        long spread = plans.stream()
                .filter(plan -> Fixtures.partitionsTouched(plan) == 2)
                .count();
        assertEquals(50, 100.0 * spread / plans.size(), 1.5);
    }

    @Test
    void withTooFewPartitionsEveryTransactionIsLocal() {
        LoadOptions options = Fixtures.options("--workload", "pdur-1", "--global", "100", "--global-partitions", "4");
        KeySpace one = new KeySpace(1, key -> 0, Fixtures.KEYS_PER_PARTITION, 0);
        TxSource source = options.workload().source(one, options, new SplittableRandom(1));
        for (int i = 0; i < 100; i++) {
            assertEquals(TxKind.LOCAL, source.next().kind());
        }
    }
}
