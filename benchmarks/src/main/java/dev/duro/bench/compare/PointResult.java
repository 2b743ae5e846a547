package dev.duro.bench.compare;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** The repetitions of one configuration: a system at one percentage of global transactions. */
public record PointResult(String system, int globalPercent, List<RunSample> runs) {
    public PointResult {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a point needs at least one run: " + system + " " + globalPercent);
        }
        runs = List.copyOf(runs);
    }

    public Spread throughput() {
        return Spread.of(
                runs.stream().mapToDouble(RunSample::committedPerSecond).toArray());
    }

    /** The run whose throughput is the median (the lower middle one for an even count); latencies come from it. */
    public RunSample medianRun() {
        return runs.get(Spread.medianIndex(
                runs.stream().mapToDouble(RunSample::committedPerSecond).toArray()));
    }

    /** Median abort rate over the repetitions, in [0, 1]. */
    public double abortRate() {
        return Spread.of(runs.stream().mapToDouble(RunSample::abortRate).toArray())
                .median();
    }

    /** Median CPU milliseconds per committed transaction over the repetitions (NaN when none committed). */
    public double cpuMillisPerCommit() {
        return median(RunSample::cpuMillisPerCommit);
    }

    /** Median of the servers' CPU milliseconds per committed transaction (NaN when not measured apart). */
    public double serverCpuMillisPerCommit() {
        return median(RunSample::serverCpuMillisPerCommit);
    }

    /** Median of the clients' CPU milliseconds per committed transaction (NaN when not measured apart). */
    public double clientCpuMillisPerCommit() {
        return median(RunSample::clientCpuMillisPerCommit);
    }

    private double median(ToDoubleFunction<RunSample> metric) {
        double[] values =
                runs.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).toArray();
        return values.length == 0 ? Double.NaN : Spread.of(values).median();
    }

    public long errors() {
        return runs.stream().mapToLong(RunSample::errors).sum();
    }
}
