package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompareResultsTest {
    @Test
    void normalisesToDurWithThreeReplicasAsThePaperDoes() {
        CompareResults results = Fixtures.matrix();
        assertEquals("duro-1x3", results.baseline().orElseThrow().system());
        assertEquals(1000, results.baseline().orElseThrow().committedPerSecond(), 1e-9);
        Spread duro =
                results.normalised(results.point("duro-2x3", 0).orElseThrow()).orElseThrow();
        assertEquals(2.0, duro.median(), 1e-9);
        assertEquals(1.8, duro.min(), 1e-9);
        assertEquals(2.4, duro.max(), 1e-9);
    }

    @Test
    void withoutThreeReplicaDurTheFirstDurPresentIsTheBaseline() {
        CompareResults all = Fixtures.matrix();
        CompareResults noDur3 = new CompareResults(
                all.systems().subList(1, 4),
                all.globals(),
                all.points().stream()
                        .filter(p -> !p.system().equals("duro-1x3"))
                        .toList(),
                List.of(),
                Map.of());
        assertEquals("dur-1x6", noDur3.baseline().orElseThrow().system());
    }

    @Test
    void targetsAreMarkedWithTheirMeasuredRatios() {
        List<TargetCheck> checks = TargetCheck.evaluate(Fixtures.matrix());
        assertEquals(TargetCheck.Status.MET, checks.get(0).status());
        assertEquals("2.00x", checks.get(0).measured());
        assertEquals(TargetCheck.Status.MET, checks.get(1).status());
        assertTrue(
                checks.get(1).measured().contains("break-even ~75% global"),
                checks.get(1).measured());
        assertEquals(TargetCheck.Status.MET, checks.get(2).status());
        assertEquals("20.00x", checks.get(2).measured());
    }

    @Test
    void aBreakEvenBelowHalfIsMissedAndAMissingSystemIsNotMeasured() {
        CompareResults all = Fixtures.matrix();
        CompareResults slow = new CompareResults(
                all.systems(),
                all.globals(),
                all.points().stream()
                        .map(p -> p.system().equals("duro-2x3") && p.globalPercent() > 0
                                ? Fixtures.point("duro-2x3", p.globalPercent(), 500, 5)
                                : p)
                        .filter(p -> !p.system().equals("etcd-3"))
                        .toList(),
                List.of(),
                Map.of());
        List<TargetCheck> checks = TargetCheck.evaluate(slow);
        assertEquals(TargetCheck.Status.MISSED, checks.get(1).status());
        assertTrue(
                checks.get(1).measured().contains("break-even ~7% global"),
                checks.get(1).measured());
        assertEquals(TargetCheck.Status.NOT_MEASURED, checks.get(2).status());
    }
}
