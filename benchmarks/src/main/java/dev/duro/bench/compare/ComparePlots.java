package dev.duro.bench.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/** The comparison's two figures: normalised throughput against % global, and latency CDFs at 0% global. */
public final class ComparePlots {
    public static final String THROUGHPUT_FILE = "throughput-vs-global.png";
    public static final String LATENCY_FILE = "latency-cdf.png";
    static final int WIDTH = 1000;
    static final int HEIGHT = 600;

    private ComparePlots() {}

    public static void write(CompareResults results, Path directory) throws IOException {
        Optional<Chart> throughput = throughput(results);
        if (throughput.isPresent()) {
            throughput.get().writePng(directory.resolve(THROUGHPUT_FILE), WIDTH, HEIGHT);
        }
        Optional<Chart> latency = latencyCdf(results);
        if (latency.isPresent()) {
            latency.get().writePng(directory.resolve(LATENCY_FILE), WIDTH, HEIGHT);
        }
    }

    /** Median throughput over the baseline's, with min–max bars, one line per system. */
    static Optional<Chart> throughput(CompareResults results) {
        Optional<CompareResults.Baseline> baseline = results.baseline();
        if (baseline.isEmpty()) {
            return Optional.empty();
        }
        List<Chart.Series> lines = new ArrayList<>();
        double highest = 1;
        for (int i = 0; i < results.systems().size(); i++) {
            SystemSpec system = results.systems().get(i);
            List<Chart.Point> points = new ArrayList<>();
            for (int global : results.globals()) {
                Optional<PointResult> point = results.point(system.name(), global);
                if (point.isPresent()) {
                    Spread s = point.get().throughput().dividedBy(baseline.get().committedPerSecond());
                    points.add(new Chart.Point(global, s.median(), s.min(), s.max()));
                    highest = Math.max(highest, s.max());
                }
            }
            if (!points.isEmpty()) {
                lines.add(new Chart.Series(legendName(system), color(i), marker(i), false, points));
            }
        }
        double step = niceStep(highest * 1.1 / 6);
        double top = Math.ceil(highest * 1.1 / step) * step;
        List<Double> yTicks = new ArrayList<>();
        for (double v = 0; v <= top + step / 2; v += step) {
            yTicks.add(v);
        }
        List<Double> xTicks = new ArrayList<>();
        for (int v = 0; v <= 100; v += 10) {
            xTicks.add((double) v);
        }
        return Optional.of(new Chart(
                "Normalised throughput vs % global transactions",
                String.format(
                        Locale.ROOT,
                        "1.0 = %s (classical DUR, 3 replicas), %.0f tx/s median; bars: min-max of %d run(s) per point",
                        baseline.get().system(),
                        baseline.get().committedPerSecond(),
                        results.points().get(0).runs().size()),
                new Chart.Axis(
                        "global transactions (%)",
                        -4, 104, false, xTicks, v -> String.format(Locale.ROOT, "%.0f%%", v)),
                new Chart.Axis(
                        "throughput / " + baseline.get().system() + " (median, bars min-max)",
                        0,
                        top,
                        false,
                        yTicks,
                        v -> String.format(Locale.ROOT, step < 0.1 ? "%.2f" : "%.1f", v)),
                lines,
                1.0));
    }

    /** CDF of every committed transaction's latency in each system's median run at the lowest % global. */
    static Optional<Chart> latencyCdf(CompareResults results) {
        int global =
                results.globals().stream().mapToInt(Integer::intValue).min().orElse(0);
        List<Chart.Series> lines = new ArrayList<>();
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (int i = 0; i < results.systems().size(); i++) {
            SystemSpec system = results.systems().get(i);
            Optional<PointResult> point = results.point(system.name(), global);
            if (point.isEmpty()) {
                continue;
            }
            Histogram all = point.get().medianRun().allLatencies();
            if (all.getTotalCount() == 0) {
                continue;
            }
            List<Chart.Point> cdf = cdf(all);
            lowest = Math.min(lowest, cdf.get(0).x());
            highest = Math.max(highest, cdf.get(cdf.size() - 1).x());
            lines.add(new Chart.Series(legendName(system), color(i), Chart.Marker.NONE, true, cdf));
        }
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        double min = Math.pow(10, Math.floor(Math.log10(lowest)));
        double max = Math.pow(10, Math.ceil(Math.log10(highest)));
        if (max <= min) {
            max = min * 10;
        }
        List<Double> xTicks = new ArrayList<>();
        boolean fewDecades = Math.log10(max / min) <= 3;
        for (double decade = min; decade <= max * 1.0001; decade *= 10) {
            xTicks.add(decade);
            if (fewDecades && decade * 2 < max) {
                xTicks.add(decade * 2);
                xTicks.add(decade * 5);
            }
        }
        List<Double> yTicks = new ArrayList<>();
        for (int v = 0; v <= 10; v++) {
            yTicks.add(v / 10.0);
        }
        return Optional.of(new Chart(
                "Latency CDF at " + global + "% global",
                "every committed transaction of each system's median-throughput run",
                new Chart.Axis("latency (ms, log scale)", min, max, true, xTicks, ComparePlots::millis),
                new Chart.Axis(
                        "fraction of transactions <= latency",
                        0,
                        1,
                        false,
                        yTicks,
                        v -> String.format(Locale.ROOT, "%.0f%%", 100 * v)),
                lines,
                Double.NaN));
    }

    /** Points (latency in ms, fraction at or below it) of a histogram in microseconds. */
    static List<Chart.Point> cdf(Histogram histogram) {
        List<Chart.Point> points = new ArrayList<>();
        double total = histogram.getTotalCount();
        long seen = 0;
        for (HistogramIterationValue value : histogram.recordedValues()) {
            seen += value.getCountAtValueIteratedTo();
            double millis = Math.max(histogram.highestEquivalentValue(value.getValueIteratedTo()), 1) / 1e3;
            points.add(Chart.Point.of(millis, seen / total));
        }
        return points;
    }

    private static String millis(double value) {
        if (value >= 1) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, value >= 0.1 ? "%.1f" : "%.2f", value);
    }

    private static String legendName(SystemSpec system) {
        return switch (system.kind()) {
            case DURO -> "Duro " + system.partitions() + "x" + system.replicas() + " (S-DUR)";
            case DUR -> "DUR 1x" + system.partitions() * system.replicas() + " (" + system.name() + ")";
            case ETCD -> "etcd, " + system.replicas() + " members";
        };
    }

    private static java.awt.Color color(int index) {
        return Chart.COLORS[index % Chart.COLORS.length];
    }

    private static Chart.Marker marker(int index) {
        Chart.Marker[] markers = {Chart.Marker.CIRCLE, Chart.Marker.SQUARE, Chart.Marker.TRIANGLE, Chart.Marker.DIAMOND
        };
        return markers[index % markers.length];
    }

    /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
    static double niceStep(double rough) {
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double factor : new double[] {1, 2, 5, 10}) {
            if (factor * power >= rough) {
                return factor * power;
            }
        }
        return 10 * power;
    }
}
