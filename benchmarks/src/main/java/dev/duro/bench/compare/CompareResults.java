package dev.duro.bench.compare;

import dev.duro.bench.load.SystemKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every point of a comparison, in the order the systems and percentages were asked for, plus the systems that
 * could not run and why. Normalisation follows the S-DUR paper's Figure 3: throughput divided by that of
 * classical DUR with three replicas ({@code duro-1x3} or {@code dur-1x3}); as DUR has no global transactions,
 * its throughput is one number, the median of all its runs at every percentage (the knob only changes which keys
 * it picks). Without a 3-replica DUR in the matrix, the first DUR present, else the first system, is the baseline.
 * The client sweep's runs are apart ({@link #sweep}): one run per system and client count, at one % global.
 */
public record CompareResults(
        List<SystemSpec> systems,
        List<Integer> globals,
        List<PointResult> points,
        List<SweepPoint> sweep,
        Map<String, String> failures) {
    public CompareResults {
        systems = List.copyOf(systems);
        globals = List.copyOf(globals);
        points = List.copyOf(points);
        sweep = List.copyOf(sweep);
        failures = new LinkedHashMap<>(failures);
    }

    /** One run of the client sweep: {@code system} driven by {@code clients} closed-loop clients. */
    public record SweepPoint(String system, int clients, int globalPercent, RunSample run) {}

    /** {@code system}'s sweep runs, by client count. */
    public List<SweepPoint> sweepOf(String system) {
        return sweep.stream()
                .filter(p -> p.system().equals(system))
                .sorted(Comparator.comparingInt(SweepPoint::clients))
                .toList();
    }

    public Optional<PointResult> point(String system, int globalPercent) {
        return points.stream()
                .filter(p -> p.system().equals(system) && p.globalPercent() == globalPercent)
                .findFirst();
    }

    /** The median throughput of {@code system} at {@code globalPercent}, if it was measured. */
    public Optional<Double> medianThroughput(String system, int globalPercent) {
        return point(system, globalPercent).map(p -> p.throughput().median());
    }

    /** What throughput is normalised by. */
    public record Baseline(String system, double committedPerSecond) {}

    public Optional<Baseline> baseline() {
        List<String> order = new ArrayList<>();
        for (SystemSpec spec : systems) {
            if (spec.kind() == SystemKind.DUR && spec.partitions() * spec.replicas() == 3) {
                order.add(spec.name());
            }
        }
        for (SystemSpec spec : systems) {
            if (spec.kind() == SystemKind.DUR) {
                order.add(spec.name());
            }
        }
        systems.forEach(spec -> order.add(spec.name()));
        for (String system : order) {
            double[] all = points.stream()
                    .filter(p -> p.system().equals(system))
                    .flatMap(p -> p.runs().stream())
                    .mapToDouble(RunSample::committedPerSecond)
                    .toArray();
            if (all.length > 0 && Spread.of(all).median() > 0) {
                return Optional.of(new Baseline(system, Spread.of(all).median()));
            }
        }
        return Optional.empty();
    }

    /** Throughput of a point divided by the baseline's. */
    public Optional<Spread> normalised(PointResult point) {
        return baseline().map(b -> point.throughput().dividedBy(b.committedPerSecond()));
    }
}
