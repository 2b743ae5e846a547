package dev.duro.bench.compare;

import dev.duro.bench.load.TxKind;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/** Renders a comparison as {@code report.md}: where it ran, settings, tables, targets, plots, method. */
public final class MarkdownReport {
    private MarkdownReport() {}

    public static String render(
            Environment environment, CompareOptions options, String etcdReads, CompareResults results) {
        StringBuilder md = new StringBuilder();
        md.append("# Duro vs classical DUR vs etcd (S-DUR paper, Figure 3)\n\n");
        environment(md, environment);
        settings(md, options, etcdReads, results);
        failures(md, results);
        tables(md, results);
        sweep(md, results);
        targets(md, results);
        md.append("## Plots\n\n")
                .append("![normalised throughput vs % global](")
                .append(ComparePlots.THROUGHPUT_FILE)
                .append(")\n\n![latency CDF](")
                .append(ComparePlots.LATENCY_FILE)
                .append(")\n\n");
        if (!results.sweep().isEmpty()) {
            md.append("![latency vs throughput](")
                    .append(ComparePlots.SWEEP_FILE)
                    .append(")\n\n");
        }
        method(md);
        return md.toString();
    }

    private static void environment(StringBuilder md, Environment e) {
        md.append("## Where it ran\n\n")
                .append("| | |\n|---|---|\n")
                .append(row("started", e.started()))
                .append(row("machine", e.cores() + " cores (" + e.cpuModel() + "), memory " + e.memory()))
                .append(row("OS", e.operatingSystem()))
                .append(row("Java", e.java()))
                .append(row("git commit", "`" + e.gitCommit() + "`, tree " + e.gitTree()))
                .append(row("command", "`" + e.commandLine() + "`"))
                .append('\n');
    }

    private static String row(String name, String value) {
        return "| " + name + " | " + value.replace("|", "\\|") + " |\n";
    }

    private static void settings(StringBuilder md, CompareOptions o, String etcdReads, CompareResults results) {
        md.append("## Settings\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "Workload %s, %d closed-loop clients for every system (%s), %d s measured after %d s warm-up,"
                                + " %d repetition(s) per configuration, %d keys per partition, %% global %s;"
                                + " etcd reads %s.%n%n",
                        o.workload(),
                        o.clients(),
                        o.asyncClients()
                                ? "Duro's and DUR's asynchronous: loops of calls on the client's I/O threads"
                                : "Duro's and DUR's each a thread blocking on its calls",
                        o.durationSeconds(),
                        o.warmupSeconds(),
                        o.repetitions(),
                        o.keysPerPartition(),
                        o.globals(),
                        etcdReads));
        md.append("| system | what |\n|---|---|\n");
        for (SystemSpec system : results.systems()) {
            md.append(row(system.name(), system.describe()));
        }
        md.append('\n');
    }

    private static void failures(StringBuilder md, CompareResults results) {
        if (results.failures().isEmpty()) {
            return;
        }
        md.append("## Systems that did not run\n\n");
        results.failures()
                .forEach((system, why) ->
                        md.append("- ").append(system).append(": ").append(why).append('\n'));
        md.append('\n');
    }

    private static void tables(StringBuilder md, CompareResults results) {
        Optional<CompareResults.Baseline> baseline = results.baseline();
        md.append("## Throughput (committed tx/s, median [min-max])\n\n");
        grid(md, results, p -> {
            Spread s = p.throughput();
            return String.format(Locale.ROOT, "%.0f [%.0f-%.0f]", s.median(), s.min(), s.max());
        });
        md.append("## Normalised throughput");
        if (baseline.isPresent()) {
            md.append(String.format(
                    Locale.ROOT,
                    " (/ %s = %.0f tx/s, its median over all runs)%n%n",
                    baseline.get().system(),
                    baseline.get().committedPerSecond()));
            grid(md, results, p -> {
                Spread s = results.normalised(p).orElseThrow();
                return String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", s.median(), s.min(), s.max());
            });
        } else {
            md.append("\n\nno baseline measured\n\n");
        }
        md.append("## Abort rate (% of attempts, median)\n\n");
        grid(md, results, p -> String.format(Locale.ROOT, "%.2f%%", 100 * p.abortRate()));
        md.append("## CPU per committed transaction (ms, median)\n\n");
        grid(md, results, p -> String.format(Locale.ROOT, "%.3f", p.cpuMillisPerCommit()));
        md.append("## Server CPU per committed transaction (ms, median)\n\n");
        grid(md, results, p -> millis(p.serverCpuMillisPerCommit()));
        md.append("## Client CPU per committed transaction (ms, median)\n\n");
        grid(md, results, p -> millis(p.clientCpuMillisPerCommit()));
        latencies(md, results);
        long errors = results.points().stream().mapToLong(PointResult::errors).sum();
        if (errors > 0) {
            md.append(String.format(Locale.ROOT, "Errors (not aborts) over all runs: %d.%n%n", errors));
        }
    }

    private static String millis(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
    }

    /** A systems × % global table of {@code cell}. */
    private static void grid(StringBuilder md, CompareResults results, Function<PointResult, String> cell) {
        md.append("| system |");
        results.globals().forEach(g -> md.append(' ').append(g).append("% global |"));
        md.append("\n|---|");
        results.globals().forEach(g -> md.append("---:|"));
        md.append('\n');
        for (SystemSpec system : results.systems()) {
            md.append("| ").append(system.name()).append(" |");
            for (int global : results.globals()) {
                md.append(' ')
                        .append(results.point(system.name(), global).map(cell).orElse("-"))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private static void latencies(StringBuilder md, CompareResults results) {
        List<TxKind> kinds = List.of(TxKind.values()).stream()
                .filter(kind -> results.points().stream()
                        .anyMatch(p -> !Double.isNaN(p.medianRun().latencyMillis(kind, 50))))
                .toList();
        md.append("## Latency (ms, p50 / p99, from the median-throughput run)\n\n| system | % global |");
        kinds.forEach(kind ->
                md.append(' ').append(kind.name().toLowerCase(Locale.ROOT)).append(" p50 / p99 |"));
        md.append("\n|---|---:|");
        kinds.forEach(kind -> md.append("---:|"));
        md.append('\n');
        for (SystemSpec system : results.systems()) {
            for (int global : results.globals()) {
                Optional<PointResult> point = results.point(system.name(), global);
                if (point.isEmpty()) {
                    continue;
                }
                RunSample run = point.get().medianRun();
                md.append("| ")
                        .append(system.name())
                        .append(" | ")
                        .append(global)
                        .append(" |");
                for (TxKind kind : kinds) {
                    double p50 = run.latencyMillis(kind, 50);
                    md.append(
                            Double.isNaN(p50)
                                    ? " - |"
                                    : String.format(Locale.ROOT, " %.2f / %.2f |", p50, run.latencyMillis(kind, 99)));
                }
                md.append('\n');
            }
        }
        md.append('\n');
    }

    /** The client sweep, one row per system and client count. */
    private static void sweep(StringBuilder md, CompareResults results) {
        if (results.sweep().isEmpty()) {
            return;
        }
        md.append("## Latency vs throughput (client sweep at ")
                .append(results.sweep().get(0).globalPercent())
                .append("% global, one run per point)\n\n")
                .append(
                        "| system | clients | committed tx/s | p50 ms | p99 ms | server CPU ms/tx | client CPU ms/tx |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (SystemSpec system : results.systems()) {
            for (CompareResults.SweepPoint point : results.sweepOf(system.name())) {
                RunSample run = point.run();
                Histogram latencies = run.allLatencies();
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d | %.0f | %.2f | %.2f | %s | %s |%n",
                        system.name(),
                        point.clients(),
                        run.committedPerSecond(),
                        latencies.getValueAtPercentile(50) / 1e3,
                        latencies.getValueAtPercentile(99) / 1e3,
                        millis(run.serverCpuMillisPerCommit()),
                        millis(run.clientCpuMillisPerCommit())));
            }
        }
        md.append('\n');
    }

    private static void targets(StringBuilder md, CompareResults results) {
        md.append("## Targets\n\n| target | result | measured |\n|---|---|---|\n");
        for (TargetCheck check : TargetCheck.evaluate(results)) {
            md.append("| ")
                    .append(check.target())
                    .append(" | **")
                    .append(check.status().label())
                    .append("** | ")
                    .append(check.measured())
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void method(StringBuilder md) {
        md.append(METHOD);
    }

    private static final String METHOD =
            """
            ## How it is measured

            - Every system runs the same plans (same seeds): read the keys, then write values computed from \
            them; an abort is counted, not retried.
            - Duro's and DUR's nodes run as server processes of their own (real Ratis groups, fsync on, loopback \
            Netty), driven by the load generator in this JVM; etcd runs as child processes (WAL fsync on), \
            driven by a lean Go client process on the etcd v3 client module (jetcd in this JVM for workloads it \
            does not run): gets, then one Txn comparing every read key's mod revision (a failed compare is an \
            abort); the client CPU is then the Go process's.
            - Unpartitioned systems (DUR, etcd) have no global transactions: the % global knob only changes which \
            keys are picked, so their lines are flat by design.
            - Normalised throughput follows the paper's Figure 3: divided by classical DUR with three replicas \
            (duro-1x3, i.e. one partition), taken as the median of all its runs.
            - Each repetition starts every system afresh, runs it at every % global and stops it before the next \
            starts; the order of systems and of % global points rotates between repetitions; the first run after \
            a start warms up three times as long (fresh cluster, cold JIT).
            - Throughput: median over repetitions, [min-max]; latency percentiles come from the run with the \
            median throughput; abort rate and CPU/tx are medians over repetitions.
            - CPU per committed transaction: CPU time (user + system) over the measured period, divided by commits: \
            the server processes' (Duro's and DUR's nodes, etcd's members, as the JDK's ProcessHandle reports each) \
            and the clients' process (the load generator's JVM; for etcd the Go client), and their sum; n/a where \
            the nodes ran inside the load generator (--in-process).
            - The client sweep runs each system once per client count (--client-sweep), at the lowest % global, \
            in its first repetition after the matrix's runs; each point is one run, so expect more noise than in \
            the tables above.
            - The targets compare medians; on a small shared machine they say little about the protocol at scale.
            """;
}
