package dev.duro.bench.compare;

import dev.duro.bench.load.EtcdCluster;
import dev.duro.bench.load.EtcdTarget;
import dev.duro.bench.load.LoadGenerator;
import dev.duro.bench.load.LoadOptions;
import dev.duro.bench.load.Report;
import dev.duro.bench.load.SystemKind;
import dev.duro.bench.load.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code ./duro bench compare}: runs every system of the matrix at every % global, {@code --repetitions} times
 * each, then writes {@code report.md}, the two plots and the raw per-run results.
 *
 * <p>Order, for fairness on a shared, noisy machine: each repetition starts every system afresh, runs it at every %
 * global (each run with its own warm-up) and stops it before the next starts, so systems never share the machine
 * and a slow spell of the machine spreads over systems instead of hitting one. The system order rotates from one
 * repetition to the next, so no system always runs first, with a cold JIT, or last. Within a start, the order of
 * the % global points rotates too: Duro keeps speeding up for a minute or more after it starts (JIT, caches), and
 * a fixed order would always give the coldest run to 0% global. The first run after a start warms up three times
 * as long.
 */
public final class CompareMain {
    private final CompareOptions options;
    private final PrintStream console;
    private final Map<String, List<RunSample>> samples = new HashMap<>();
    private final List<CompareResults.SweepPoint> sweep = new ArrayList<>();
    private final Map<String, String> failures = new LinkedHashMap<>();

    private CompareMain(CompareOptions options, PrintStream console) {
        this.options = options;
        this.console = console;
    }

    /**
     * Runs the comparison {@code options} describe; {@code args} are the command line's, quoted in the report,
     * {@code errors} gets what stops it before it starts. Returns the process exit status: 0 when it measured
     * something, 1 when every system failed, 2 when a system it needs is missing.
     */
    public static int run(CompareOptions options, List<String> args, PrintStream console, PrintWriter errors)
            throws IOException, InterruptedException {
        if (options.systems().stream().anyMatch(s -> s.kind() == SystemKind.ETCD) && !EtcdCluster.isInstalled()) {
            errors.println("duro bench compare: the etcd baseline needs " + EtcdCluster.ETCD_BINARY
                    + ", which is missing. Install Debian's etcd-server package (apt-get install -y etcd-server),"
                    + " or leave etcd out with --systems duro-1x3,duro-2x3,dur-1x6");
            return 2;
        }
        Environment environment = Environment.collect(args);
        CompareMain compare = new CompareMain(options, console);
        CompareResults results = compare.runMatrix();
        Path directory = options.outputDirectory();
        Files.createDirectories(directory);
        String etcdReads = EtcdTarget.serializableReads() ? "serializable" : "linearizable";
        Files.writeString(
                directory.resolve("report.md"),
                MarkdownReport.render(environment, options, etcdReads, results),
                StandardCharsets.UTF_8);
        ComparePlots.write(results, directory);
        compare.summary(results);
        console.println("report: " + directory.resolve("report.md") + " (plots beside it, raw runs in "
                + directory.resolve("raw") + ")");
        return results.points().isEmpty() ? 1 : 0;
    }

    private CompareResults runMatrix() throws InterruptedException {
        console.printf(
                Locale.ROOT,
                "bench compare: %d system(s) x %d %% global x %d repetition(s), %d clients, then a sweep of %s"
                        + " clients; %d s + %d s warm-up each: about %d min of load plus start-ups%n",
                options.systems().size(),
                options.globals().size(),
                options.repetitions(),
                options.clients(),
                options.clientSweep().isEmpty() ? "no" : options.clientSweep().toString(),
                options.durationSeconds(),
                options.warmupSeconds(),
                Math.round(options.loadSeconds() / 60.0));
        int systemCount = options.systems().size();
        for (int repetition = 1; repetition <= options.repetitions(); repetition++) {
            for (int k = 0; k < systemCount; k++) {
                SystemSpec system = rotated(options.systems(), repetition - 1).get(k);
                if (failures.containsKey(system.name())) {
                    continue;
                }
                console.printf(
                        Locale.ROOT,
                        "%n== repetition %d/%d, [%d/%d] %s: %s%n",
                        repetition,
                        options.repetitions(),
                        k + 1,
                        systemCount,
                        system.name(),
                        system.describe());
                try {
                    runSystem(system, repetition);
                } catch (IOException | RuntimeException e) {
                    failures.put(system.name(), e.getClass().getSimpleName() + ": " + e.getMessage());
                    console.println("== " + system.name() + " failed, going on without it: " + e.getMessage());
                }
            }
        }
        List<PointResult> points = new ArrayList<>();
        for (SystemSpec system : options.systems()) {
            for (int global : options.globals()) {
                List<RunSample> runs = samples.getOrDefault(point(system, global), List.of());
                if (!runs.isEmpty()) {
                    points.add(new PointResult(system.name(), global, runs));
                }
            }
        }
        return new CompareResults(options.systems(), options.globals(), points, sweep, failures);
    }

    /** {@code items} starting at index {@code by} (mod size), wrapping around. */
    static <T> List<T> rotated(List<T> items, int by) {
        List<T> result = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            result.add(items.get((i + by) % items.size()));
        }
        return result;
    }

    private static String point(SystemSpec system, int global) {
        return system.name() + "@" + global;
    }

    /**
     * Starts {@code system}, runs it once at every % global (and the client sweep in the first repetition), stops
     * it.
     */
    private void runSystem(SystemSpec system, int repetition) throws IOException, InterruptedException {
        Path raw = options.outputDirectory().resolve("raw");
        LoadOptions layout = LoadOptions.parse(options.loadArgs(system, 0, raw));
        try (Target target = layout.system().start(layout, console)) {
            boolean fresh = true;
            for (int global : rotated(options.globals(), repetition - 1)) {
                console.printf(
                        Locale.ROOT,
                        "-- %s, %d%% global, repetition %d/%d%n",
                        system.name(),
                        global,
                        repetition,
                        options.repetitions());
                Path out = raw.resolve(system.name() + "-g" + global + "-r" + repetition);
                int warmup = fresh ? 3 * options.warmupSeconds() : options.warmupSeconds();
                fresh = false;
                RunSample sample = measure(target, options.loadArgs(system, global, out, warmup));
                samples.computeIfAbsent(point(system, global), key -> new ArrayList<>())
                        .add(sample);
                print(system.name() + " " + global + "% global", sample);
            }
            if (repetition == 1) {
                sweep(system, target, raw);
            }
        }
    }

    /**
     * The latency-vs-throughput sweep: {@code system} (started and warm) at the lowest % global with each client
     * count of {@code --client-sweep}, fewest first, once.
     */
    private void sweep(SystemSpec system, Target target, Path raw) throws IOException, InterruptedException {
        int global = options.sweepGlobal();
        for (int clients : options.clientSweep()) {
            console.printf(
                    Locale.ROOT, "-- %s, %d%% global, client sweep: %d clients%n", system.name(), global, clients);
            Path out = raw.resolve(system.name() + "-g" + global + "-c" + clients);
            RunSample sample = measure(target, options.loadArgs(system, global, out, options.warmupSeconds(), clients));
            sweep.add(new CompareResults.SweepPoint(system.name(), clients, global, sample));
            print(system.name() + " " + clients + " clients", sample);
        }
    }

    /** One run of the load generator with {@code args} against {@code target}; its report is kept in its --out. */
    private RunSample measure(Target target, String[] args) throws IOException, InterruptedException {
        LoadOptions run = LoadOptions.parse(args);
        Report report = new LoadGenerator(run, console).run(target);
        report.write(run.outputDirectory());
        return RunSample.of(report);
    }

    private void print(String what, RunSample sample) {
        Histogram latencies = sample.allLatencies();
        console.printf(
                Locale.ROOT,
                "   %s: %.0f tx/s, aborts %.2f%%, errors %d, p50 %.2f ms, p99 %.2f ms, CPU %.3f ms/tx"
                        + " (server %.3f, client %.3f)%n",
                what,
                sample.committedPerSecond(),
                100 * sample.abortRate(),
                sample.errors(),
                latencies.getValueAtPercentile(50) / 1e3,
                latencies.getValueAtPercentile(99) / 1e3,
                sample.cpuMillisPerCommit(),
                sample.serverCpuMillisPerCommit(),
                sample.clientCpuMillisPerCommit());
    }

    private void summary(CompareResults results) {
        console.printf(Locale.ROOT, "%n%-10s", "tx/s");
        results.globals().forEach(g -> console.printf(Locale.ROOT, " %22s", g + "% global"));
        console.println();
        for (SystemSpec system : results.systems()) {
            console.printf(Locale.ROOT, "%-10s", system.name());
            for (int global : results.globals()) {
                String cell = results.point(system.name(), global)
                        .map(p -> {
                            Spread s = p.throughput();
                            String normalised = results.normalised(p)
                                    .map(n -> String.format(Locale.ROOT, " (%.2f)", n.median()))
                                    .orElse("");
                            return String.format(Locale.ROOT, "%.0f%s", s.median(), normalised);
                        })
                        .orElse("-");
                console.printf(Locale.ROOT, " %22s", cell);
            }
            console.println();
        }
        results.baseline()
                .ifPresent(b -> console.printf(
                        Locale.ROOT, "(normalised to %s = %.0f tx/s)%n", b.system(), b.committedPerSecond()));
        for (TargetCheck check : TargetCheck.evaluate(results)) {
            console.printf(
                    Locale.ROOT,
                    "target %-55s %-12s %s%n",
                    check.target(),
                    check.status().label(),
                    check.measured());
        }
    }
}
