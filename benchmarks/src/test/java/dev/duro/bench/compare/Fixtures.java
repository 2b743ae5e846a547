package dev.duro.bench.compare;

import dev.duro.bench.load.TxKind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Comparison results from fixed numbers, as a real matrix would produce them. */
final class Fixtures {
    private Fixtures() {}

    static RunSample run(double committedPerSecond, double latencyMillis, TxKind kind) {
        Histogram histogram = new Histogram(3);
        for (int i = 1; i <= 100; i++) {
            histogram.recordValue(Math.round(latencyMillis * 1000 * i / 50.0));
        }
        Map<TxKind, Histogram> latencies = new EnumMap<>(TxKind.class);
        latencies.put(kind, histogram);
        return new RunSample(committedPerSecond, 0.004, 0.5, 0.4, 0.1, 0, latencies);
    }

    /**
     * One run with the servers' and the clients' CPU per committed transaction given, and a p50 of {@code
     * latencyMillis} for each class in {@code kinds}, plus {@code extraMillis} more for {@link TxKind#GLOBAL}.
     */
    static RunSample run(
            double committedPerSecond,
            double serverCpu,
            double clientCpu,
            double latencyMillis,
            double extraMillis,
            TxKind... kinds) {
        Map<TxKind, Histogram> latencies = new EnumMap<>(TxKind.class);
        for (TxKind kind : kinds) {
            Histogram histogram = new Histogram(3);
            double p50 = latencyMillis + (kind == TxKind.GLOBAL ? extraMillis : 0);
            for (int i = 1; i <= 100; i++) {
                histogram.recordValue(Math.round(p50 * 1000 * i / 50.0));
            }
            latencies.put(kind, histogram);
        }
        return new RunSample(committedPerSecond, 0.004, serverCpu + clientCpu, serverCpu, clientCpu, 0, latencies);
    }

    /** Three runs around {@code median}: 0.9x, 1x and 1.2x of it. */
    static PointResult point(String system, int global, double median, double latencyMillis) {
        TxKind kind = global > 0 && system.startsWith("duro-2") ? TxKind.GLOBAL : TxKind.LOCAL;
        return new PointResult(
                system,
                global,
                List.of(
                        run(median * 0.9, latencyMillis, kind),
                        run(median, latencyMillis, kind),
                        run(median * 1.2, latencyMillis, kind)));
    }

    /**
     * DUR 1x3 at 1000 tx/s, DUR 1x6 at 1000, Duro 2x3 at 2000 falling to 800 at 100% global, etcd at 100: the
     * first and last targets met, break-even at 75%. The client sweep ran Duro 1x3 and etcd at 8 and 32 clients
     * (etcd's listed out of order).
     */
    static CompareResults matrix() {
        List<SystemSpec> systems = List.of("duro-1x3", "duro-2x3", "dur-1x6", "etcd-3").stream()
                .map(SystemSpec::parse)
                .toList();
        List<Integer> globals = List.of(0, 10, 50, 100);
        double[] duro = {2000, 1800, 1200, 800};
        List<PointResult> points = new ArrayList<>();
        for (int i = 0; i < globals.size(); i++) {
            int g = globals.get(i);
            points.add(point("duro-1x3", g, 1000, 4));
            points.add(point("duro-2x3", g, duro[i], 5));
            points.add(point("dur-1x6", g, 1000, 6));
            points.add(point("etcd-3", g, 100, 40));
        }
        List<CompareResults.SweepPoint> sweep = List.of(
                new CompareResults.SweepPoint("duro-1x3", 8, 0, run(900, 2, TxKind.LOCAL)),
                new CompareResults.SweepPoint("duro-1x3", 32, 0, run(1800, 4, TxKind.LOCAL)),
                new CompareResults.SweepPoint("etcd-3", 32, 0, run(120, 50, TxKind.LOCAL)),
                new CompareResults.SweepPoint("etcd-3", 8, 0, run(100, 20, TxKind.LOCAL)));
        return new CompareResults(systems, globals, points, sweep, Map.of());
    }
}
