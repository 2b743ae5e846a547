package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.bench.load.TxKind;
import java.util.ArrayList;
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

    /** The check named {@code prefix} of issue 11's, by its target's text. */
    private static TargetCheck check(List<TargetCheck> checks, String prefix) {
        return checks.stream()
                .filter(c -> c.target().startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no check " + prefix + " in " + checks));
    }

    /**
     * Duro 1x3 swept at 8, 32 and 128 clients (2,000, 6,000 and 10,000 tx/s at p50 2, 4 and 8 ms; 0.07 ms of server
     * and 0.06 ms of client CPU at the peak), Duro 2x3 at 10% global with local p50 5 ms and global p50 5 + {@code
     * globalExtra} ms, and Duro 2x3's server CPU at 0% {@code duroCpu} against DUR 1x6's 0.4 ms.
     */
    private static CompareResults issueEleven(double globalExtra, double duroCpu) {
        CompareResults all = Fixtures.matrix();
        List<PointResult> points = new ArrayList<>();
        for (PointResult p : all.points()) {
            if (p.system().equals("duro-2x3") && p.globalPercent() == 10) {
                points.add(new PointResult(
                        "duro-2x3",
                        10,
                        List.of(Fixtures.run(1800, 0.4, 0.1, 5, globalExtra, TxKind.LOCAL, TxKind.GLOBAL))));
            } else if (p.system().equals("duro-2x3") && p.globalPercent() == 0) {
                points.add(
                        new PointResult("duro-2x3", 0, List.of(Fixtures.run(2000, duroCpu, 0.1, 5, 0, TxKind.LOCAL))));
            } else {
                points.add(p);
            }
        }
        List<CompareResults.SweepPoint> sweep = List.of(
                new CompareResults.SweepPoint("duro-1x3", 32, 0, Fixtures.run(6000, 0.09, 0.07, 4, 0, TxKind.LOCAL)),
                new CompareResults.SweepPoint("duro-1x3", 8, 0, Fixtures.run(2000, 0.2, 0.1, 2, 0, TxKind.LOCAL)),
                new CompareResults.SweepPoint(
                        "duro-1x3", 128, 0, Fixtures.run(10_000, 0.07, 0.06, 8, 0, TxKind.LOCAL)));
        return new CompareResults(all.systems(), all.globals(), points, sweep, Map.of());
    }

    @Test
    void issueElevensTargetsAreCheckedAtThePeakAndAtHalfOfIt() {
        List<TargetCheck> checks = TargetCheck.evaluate(issueEleven(1.5, 0.2));
        TargetCheck server = check(checks, "duro-1x3 server CPU");
        assertEquals(TargetCheck.Status.MET, server.status());
        assertEquals("0.070 ms at 128 clients (10000 tx/s)", server.measured());
        TargetCheck client = check(checks, "duro-1x3 client CPU");
        assertEquals(TargetCheck.Status.MISSED, client.status(), "0.06 ms against 0.05");
        assertEquals("0.060 ms at 128 clients (10000 tx/s)", client.measured());
        // Half the peak is 5,000 tx/s, three quarters of the way from 8 clients' 2,000 to 32 clients' 6,000.
        TargetCheck latency = check(checks, "duro-1x3 local p50 at half");
        assertEquals(TargetCheck.Status.MET, latency.status());
        assertTrue(
                latency.measured().startsWith("3.50 ms at 5000 tx/s (between 8 and 32 clients)"), latency.measured());
        assertEquals(TargetCheck.Status.MET, check(checks, "duro-1x3 vs etcd-3").status());
        assertEquals("10.00x", check(checks, "duro-1x3 vs etcd-3").measured());
        assertEquals(
                TargetCheck.Status.MET,
                check(checks, "duro-2x3 vs dur-1x6 at 0% global >= 1.6x").status());
        TargetCheck cpu = check(checks, "duro-2x3 server CPU");
        assertEquals(TargetCheck.Status.MET, cpu.status(), "0.2 against 0.4 ms");
        assertTrue(cpu.measured().startsWith("0.50x"), cpu.measured());
        TargetCheck global = check(checks, "duro-2x3 global p50");
        assertEquals(TargetCheck.Status.MET, global.status());
        assertTrue(global.measured().startsWith("1.50 ms at 10% global"), global.measured());
    }

    @Test
    void issueElevensTargetsAreMissedOrNotMeasuredWhenTheRunSaysSo() {
        List<TargetCheck> missed = TargetCheck.evaluate(issueEleven(2.5, 0.3));
        assertEquals(
                TargetCheck.Status.MISSED, check(missed, "duro-2x3 global p50").status());
        assertEquals(
                TargetCheck.Status.MISSED, check(missed, "duro-2x3 server CPU").status(), "0.75x");

        CompareResults all = Fixtures.matrix(); // its points have one class each
        assertEquals(
                TargetCheck.Status.NOT_MEASURED,
                check(TargetCheck.evaluate(all), "duro-2x3 global p50").status());
        // A sweep whose lightest run is above half the peak says nothing of the latency there.
        CompareResults heavy = new CompareResults(
                all.systems(),
                all.globals(),
                all.points(),
                List.of(
                        new CompareResults.SweepPoint(
                                "duro-1x3", 8, 0, Fixtures.run(6000, 0.1, 0.05, 3, 0, TxKind.LOCAL)),
                        new CompareResults.SweepPoint(
                                "duro-1x3", 32, 0, Fixtures.run(10_000, 0.1, 0.05, 9, 0, TxKind.LOCAL))),
                Map.of());
        TargetCheck latency = check(TargetCheck.evaluate(heavy), "duro-1x3 local p50 at half");
        assertEquals(TargetCheck.Status.NOT_MEASURED, latency.status());
        assertTrue(latency.measured().contains("5000 tx/s"), latency.measured());
        CompareResults noSweep = new CompareResults(all.systems(), all.globals(), all.points(), List.of(), Map.of());
        TargetCheck server = check(TargetCheck.evaluate(noSweep), "duro-1x3 server CPU");
        assertEquals(TargetCheck.Status.MISSED, server.status(), "the matrix's median run at 0%: 0.4 ms");
        assertTrue(server.measured().contains("0% global"), server.measured());
    }
}
