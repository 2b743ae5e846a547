package dev.duro.bench.compare;

import dev.duro.bench.load.Report;
import dev.duro.bench.load.TxKind;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What the comparison keeps of one measured run: throughput, abort rate, CPU per committed transaction (all of it,
 * and the servers' and the clients' apart where they ran as separate processes; NaN otherwise) and the latency
 * histograms (microseconds) per class of transaction.
 */
public record RunSample(
        double committedPerSecond,
        double abortRate,
        double cpuMillisPerCommit,
        double serverCpuMillisPerCommit,
        double clientCpuMillisPerCommit,
        long errors,
        Map<TxKind, Histogram> latencies) {
    public static RunSample of(Report report) {
        Map<TxKind, Histogram> latencies = new EnumMap<>(TxKind.class);
        for (TxKind kind : TxKind.values()) {
            Histogram histogram = report.latency(kind);
            if (histogram != null) {
                latencies.put(kind, histogram.copy());
            }
        }
        long committed = report.committed();
        return new RunSample(
                report.committedPerSecond(),
                report.abortRate(),
                committed == 0 ? Double.NaN : 1e3 * report.cpuSeconds() / committed,
                committed == 0 ? Double.NaN : 1e3 * report.cpu().server() / committed,
                committed == 0 ? Double.NaN : 1e3 * report.cpu().client() / committed,
                report.errors(),
                latencies);
    }

    /** Every committed transaction's latency, whatever its class. */
    public Histogram allLatencies() {
        Histogram all = new Histogram(3);
        latencies.values().forEach(all::add);
        return all;
    }

    /** The latency at {@code percentile} of {@code kind}, in milliseconds; NaN when none of that class committed. */
    public double latencyMillis(TxKind kind, double percentile) {
        Histogram histogram = latencies.get(kind);
        return histogram == null || histogram.getTotalCount() == 0
                ? Double.NaN
                : histogram.getValueAtPercentile(percentile) / 1e3;
    }
}
