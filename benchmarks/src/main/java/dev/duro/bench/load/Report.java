package dev.duro.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.HdrHistogram.Histogram;

/** The result of one load run: printed as a table, written as JSON and CSV. */
public final class Report {
    /**
     * CPU seconds of the measured period.
     *
     * @param thisProcess the clients' process: the load generator's JVM (and the servers too if they run in it), or
     *     the Go etcd client's process when it drives etcd
     * @param servers the server processes' (Duro nodes, etcd members); NaN when they were not measured apart
     * @param serversInThisProcess whether the servers run in the load generator's JVM
     */
    public record Cpu(double thisProcess, double servers, boolean serversInThisProcess) {
        /** The clients' CPU seconds, NaN when they share their JVM with the servers. */
        public double client() {
            return serversInThisProcess ? Double.NaN : thisProcess;
        }

        /** The servers' CPU seconds, NaN when unknown (in this JVM, or a --cluster without --server-pids). */
        public double server() {
            return serversInThisProcess ? Double.NaN : servers;
        }

        /** Everything measured: this process plus the server processes. */
        public double total() {
            return thisProcess + (Double.isNaN(servers) ? 0 : servers);
        }
    }

    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private final String system;
    private final LoadOptions options;
    private final double seconds;
    private final Map<TxKind, Long> committed;
    private final Map<String, Long> aborted;
    private final long errors;
    private final Map<TxKind, Histogram> latencies;
    private final Cpu cpu;
    private final double commandsPerEntry;
    private final double entriesPerSecond;
    private final @Nullable ThreadCpu.Account threads;

    Report(
            String system,
            LoadOptions options,
            double seconds,
            Map<TxKind, Long> committed,
            Map<String, Long> aborted,
            long errors,
            Map<TxKind, Histogram> latencies,
            Cpu cpu,
            double commandsPerEntry,
            double entriesPerSecond,
            @Nullable ThreadCpu.Account threads) {
        this.system = system;
        this.options = options;
        this.seconds = seconds;
        this.committed = committed;
        this.aborted = aborted;
        this.errors = errors;
        this.latencies = latencies;
        this.cpu = cpu;
        this.commandsPerEntry = commandsPerEntry;
        this.entriesPerSecond = entriesPerSecond;
        this.threads = threads;
    }

    /** The system under test, e.g. {@code duro-2x3}. */
    public String system() {
        return system;
    }

    public LoadOptions options() {
        return options;
    }

    /** Length of the measured period, seconds. */
    public double seconds() {
        return seconds;
    }

    public long committed() {
        return committed.values().stream().mapToLong(Long::longValue).sum();
    }

    public long committed(TxKind kind) {
        return committed.getOrDefault(kind, 0L);
    }

    public double committedPerSecond() {
        return committed() / seconds;
    }

    long abortedTotal() {
        return aborted.values().stream().mapToLong(Long::longValue).sum();
    }

    public long errors() {
        return errors;
    }

    /** Latencies (microseconds) of committed transactions of {@code kind} in the measured period. */
    public Histogram latency(TxKind kind) {
        return Objects.requireNonNull(latencies.get(kind), "every class has a histogram");
    }

    /** CPU seconds used in the measured period: this process, plus the system's own processes outside it. */
    public double cpuSeconds() {
        return cpu.total();
    }

    public Cpu cpu() {
        return cpu;
    }

    /** Milliseconds of {@code seconds} per committed transaction; NaN if unknown or nothing committed. */
    private double perCommitMillis(double cpuSeconds) {
        return committed() == 0 || Double.isNaN(cpuSeconds) ? Double.NaN : 1e3 * cpuSeconds / committed();
    }

    /** Aborted / (committed + aborted), in [0, 1]. */
    public double abortRate() {
        long attempts = committed() + abortedTotal();
        return attempts == 0 ? 0 : (double) abortedTotal() / attempts;
    }

    void print(PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%n%s: workload %s, %d%% global (%d partitions each), %d partitions x %d replicas, %d"
                        + " clients, %.0f s measured after %d s warm-up, %d cores%n",
                system,
                options.workload(),
                options.globalPercent(),
                options.globalPartitions(),
                options.partitions(),
                options.replicas(),
                options.clients(),
                seconds,
                options.warmup().toSeconds(),
                Runtime.getRuntime().availableProcessors());
        out.printf(
                Locale.ROOT,
                "committed: %.0f tx/s   abort rate: %.2f%%   errors: %d   process CPU: %.3f ms per" + " committed tx%n",
                committed() / seconds,
                100 * abortRate(),
                errors,
                committed() == 0 ? 0 : 1e3 * cpu.total() / committed());
        // Exactly these two lines, which scripts read.
        out.println("server CPU: " + cpuLine(cpu.server(), "the servers run in this process: see process CPU"));
        out.println("client CPU: " + cpuLine(cpu.client(), "the clients share this process with the servers"));
        printThreads(out);
        if (!Double.isNaN(commandsPerEntry)) {
            out.printf(
                    Locale.ROOT,
                    "log: %.0f entries/s, %.1f commands per entry (group commit)%n",
                    entriesPerSecond,
                    commandsPerEntry);
        }
        out.printf(
                Locale.ROOT,
                "%-10s %10s %10s %10s %10s %10s %10s%n",
                "class",
                "tx/s",
                "p50 ms",
                "p90 ms",
                "p99 ms",
                "p99.9 ms",
                "max ms");
        for (Map.Entry<TxKind, Histogram> entry : latencies.entrySet()) {
            long count = committed.getOrDefault(entry.getKey(), 0L);
            if (count == 0) {
                continue;
            }
            Histogram h = entry.getValue();
            out.printf(
                    Locale.ROOT,
                    "%-10s %10.0f %10.2f %10.2f %10.2f %10.2f %10.2f%n",
                    entry.getKey().name().toLowerCase(Locale.ROOT),
                    count / seconds,
                    ms(h, 50),
                    ms(h, 90),
                    ms(h, 99),
                    ms(h, 99.9),
                    h.getMaxValue() / 1e3);
        }
        aborted.forEach((kind, count) -> {
            if (count > 0) {
                out.printf(Locale.ROOT, "aborts %-32s %d%n", kind.toLowerCase(Locale.ROOT), count);
            }
        });
    }

    /**
     * Microseconds of CPU per committed transaction by component ({@code --thread-cpu}): each component's share of
     * the threads' CPU between the dumps, of the servers' CPU per transaction (of this process's when the servers run
     * in it, whose dumps then also hold the clients' threads). Empty without an account.
     */
    Map<ThreadCpu.Component, Double> threadMicrosPerCommit() {
        Map<ThreadCpu.Component, Double> micros = new LinkedHashMap<>();
        double perCommitMillis = perCommitMillis(cpu.serversInThisProcess() ? cpu.total() : cpu.server());
        ThreadCpu.Account account = threads;
        if (account == null || Double.isNaN(perCommitMillis)) {
            return micros;
        }
        for (ThreadCpu.Component component : ThreadCpu.Component.values()) {
            micros.put(component, 1e3 * perCommitMillis * account.share(component));
        }
        return micros;
    }

    private void printThreads(PrintStream out) {
        Map<ThreadCpu.Component, Double> micros = threadMicrosPerCommit();
        ThreadCpu.Account account = threads;
        if (account == null || micros.isEmpty()) {
            return;
        }
        out.println(
                cpu.serversInThisProcess()
                        ? "CPU by thread (--thread-cpu; this process, clients and servers, per committed tx):"
                        : "server CPU by thread (--thread-cpu; all nodes, per committed tx):");
        micros.forEach((component, us) -> out.printf(
                Locale.ROOT, "  %-54s %8.1f us %6.1f%%%n", component.label, us, 100 * account.share(component)));
        if (account.threadsEnded() > 0) {
            out.printf(
                    Locale.ROOT,
                    "  (%d thread(s) ended during the window; their CPU is not in the shares)%n",
                    account.threadsEnded());
        }
    }

    private static double ms(Histogram histogram, double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e3;
    }

    public void write(Path directory) throws IOException {
        Files.createDirectories(directory);
        json().write(directory.resolve("result.json"));
        Files.writeString(directory.resolve("result.csv"), csv(), StandardCharsets.UTF_8);
    }

    /** What {@code result.json} holds: the figures {@link #print} shows, rounded as the file gives them. */
    ResultJson json() {
        Map<String, ResultJson.LatencyClass> classes = new LinkedHashMap<>();
        for (Map.Entry<TxKind, Histogram> entry : latencies.entrySet()) {
            Histogram h = entry.getValue();
            classes.put(
                    entry.getKey().name(),
                    new ResultJson.LatencyClass(
                            committed.getOrDefault(entry.getKey(), 0L),
                            ResultJson.decimal(ms(h, 50), 3),
                            ResultJson.decimal(ms(h, 90), 3),
                            ResultJson.decimal(ms(h, 99), 3),
                            ResultJson.decimal(ms(h, 99.9), 3),
                            ResultJson.decimal(h.getMaxValue() / 1e3, 3)));
        }
        return new ResultJson(
                system,
                options.workload().label(),
                options.globalPercent(),
                options.globalPartitions(),
                options.partitions(),
                options.replicas(),
                options.clients(),
                ResultJson.decimal(seconds, 3),
                Runtime.getRuntime().availableProcessors(),
                ResultJson.decimal(committed() / seconds, 1),
                ResultJson.decimal(abortRate(), 5),
                errors,
                ResultJson.decimal(committed() == 0 ? 0 : 1e3 * cpu.total() / committed(), 4),
                ResultJson.decimal(perCommitMillis(cpu.server()), 4),
                ResultJson.decimal(perCommitMillis(cpu.client()), 4),
                ResultJson.decimal(commandsPerEntry, 2),
                ResultJson.decimal(entriesPerSecond, 2),
                threadsJson(),
                new TreeMap<>(aborted),
                classes);
    }

    private @Nullable Map<String, BigDecimal> threadsJson() {
        Map<ThreadCpu.Component, Double> micros = threadMicrosPerCommit();
        if (micros.isEmpty()) {
            return null;
        }
        Map<String, BigDecimal> json = new LinkedHashMap<>();
        micros.forEach((component, us) -> json.put(component.key, ResultJson.decimal(us, 1)));
        return json;
    }

    private String cpuLine(double seconds, String whyUnknown) {
        if (Double.isNaN(seconds) && cpu.serversInThisProcess()) {
            return "n/a ms per committed tx (" + whyUnknown + ")";
        }
        if (Double.isNaN(seconds) || committed() == 0) {
            return "n/a ms per committed tx (not measured: give --server-pids with --cluster)";
        }
        return String.format(Locale.ROOT, "%.3f ms per committed tx", perCommitMillis(seconds));
    }

    private String csv() {
        StringBuilder out = new StringBuilder("class,committed,tx_per_s");
        for (double percentile : PERCENTILES) {
            out.append(",p")
                    .append(String.valueOf(percentile).replace(".0", "").replace('.', '_'))
                    .append("_ms");
        }
        out.append('\n');
        for (Map.Entry<TxKind, Histogram> entry : latencies.entrySet()) {
            long count = committed.getOrDefault(entry.getKey(), 0L);
            out.append(entry.getKey().name().toLowerCase(Locale.ROOT))
                    .append(',')
                    .append(count)
                    .append(',')
                    .append(String.format(Locale.ROOT, "%.1f", count / seconds));
            for (double percentile : PERCENTILES) {
                out.append(String.format(Locale.ROOT, ",%.3f", ms(entry.getValue(), percentile)));
            }
            out.append('\n');
        }
        return out.toString();
    }
}
