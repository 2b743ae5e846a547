package dev.duro.bench.compare;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Options of {@code ./duro bench compare}. The defaults run the S-DUR paper's Figure 3 matrix (workload A; 0, 10,
 * 50 and 100% global) for Duro 1×3 (= DUR with 3 replicas, the paper's baseline) and 2×3, DUR 1×6 and etcd with
 * 3 members, 3 repetitions of 10 s after 5 s of warm-up each: about 14 minutes of load plus 12 start-ups (19 minutes in all on the shared 2-core machine).
 */
public record CompareOptions(
        String workload,
        int clients,
        int durationSeconds,
        int warmupSeconds,
        int repetitions,
        List<SystemSpec> systems,
        List<Integer> globals,
        int keysPerPartition,
        Path outputDirectory,
        boolean help) {
    public static final String USAGE =
            """
            usage: ./duro bench compare [options]   Duro vs classical DUR vs etcd (the S-DUR paper's Figure 3)
              --workload A|B|...        workload, as for the load generator (A)
              --clients N               closed-loop clients, the same for every system (64)
              --duration S              measured seconds per run (10)
              --warmup S                seconds before measuring, per run (5)
              --repetitions N           runs per configuration; median and min-max reported (3)
              --systems LIST            duro-PxR, dur-1xN, etcd-N, comma-separated (duro-1x3,duro-2x3,dur-1x6,etcd-3)
              --globals LIST            percentages of global transactions (0,10,50,100)
              --keys-per-partition N    distinct keys per partition (100000)
              --quick                   smoke run: 1 repetition, 3 s after 2 s warm-up, globals 0,50
                                        (flags given explicitly still win)
              --out DIR                 report.md, plots, raw/ (benchmarks/results/<timestamp>)
            etcd needs /usr/bin/etcd (Debian package etcd-server); its reads are linearizable unless the JVM runs
            with -Dduro.bench.etcd.serializable=true
            (through ./duro: DURO_JAVA_OPTS="-Xmx2g -Dduro.bench.etcd.serializable=true" ./duro bench compare).
            """;

    public CompareOptions {
        require(clients >= 1 && clients <= 10_000, "--clients must be in [1, 10000]");
        require(durationSeconds >= 1, "--duration must be >= 1");
        require(warmupSeconds >= 0, "--warmup must be >= 0");
        require(repetitions >= 1 && repetitions <= 100, "--repetitions must be in [1, 100]");
        require(!systems.isEmpty(), "--systems must name at least one system");
        require(!globals.isEmpty(), "--globals must name at least one percentage");
        for (int global : globals) {
            require(global >= 0 && global <= 100, "--globals must be percentages in [0, 100]");
        }
        require(keysPerPartition >= 16, "--keys-per-partition must be >= 16");
        require(
                systems.stream().map(SystemSpec::name).distinct().count() == systems.size(),
                "--systems names a system twice");
        systems = List.copyOf(systems);
        globals = List.copyOf(globals);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public static CompareOptions parse(String[] args) {
        String workload = "A";
        Integer clients = null;
        Integer duration = null;
        Integer warmup = null;
        Integer repetitions = null;
        List<SystemSpec> systems = null;
        List<Integer> globals = null;
        int keys = 100_000;
        Path out = null;
        boolean quick = false;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                help = true;
                continue;
            }
            if (flag.equals("--quick")) {
                quick = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--workload" -> workload = value.toUpperCase(Locale.ROOT);
                case "--clients" -> clients = Integer.parseInt(value);
                case "--duration" -> duration = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--repetitions" -> repetitions = Integer.parseInt(value);
                case "--systems" -> systems =
                        list(value).stream().map(SystemSpec::parse).toList();
                case "--globals" -> globals =
                        list(value).stream().map(Integer::parseInt).toList();
                case "--keys-per-partition" -> keys = Integer.parseInt(value);
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if (out == null) {
            String stamp = LocalDateTime.now(ZoneId.systemDefault())
                    .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
            out = Path.of("benchmarks", "results", stamp);
        }
        return new CompareOptions(
                workload,
                clients != null ? clients : 64,
                duration != null ? duration : quick ? 3 : 10,
                warmup != null ? warmup : quick ? 2 : 5,
                repetitions != null ? repetitions : quick ? 1 : 3,
                systems != null
                        ? systems
                        : List.of("duro-1x3", "duro-2x3", "dur-1x6", "etcd-3").stream()
                                .map(SystemSpec::parse)
                                .toList(),
                globals != null ? globals : quick ? List.of(0, 50) : List.of(0, 10, 50, 100),
                keys,
                out,
                help);
    }

    private static List<String> list(String value) {
        List<String> items = new ArrayList<>(Arrays.asList(value.split(",")));
        items.replaceAll(String::trim);
        items.removeIf(String::isEmpty);
        return items;
    }

    /** Seconds of load the matrix runs, the longer first warm-up after each start included (not the start-ups). */
    public long loadSeconds() {
        return (long) systems.size()
                * repetitions
                * (globals.size() * (durationSeconds + warmupSeconds) + 2 * warmupSeconds);
    }

    /** The load generator's flags for one run of {@code system} at {@code global}% global, results in {@code out}. */
    public String[] loadArgs(SystemSpec system, int global, Path out) {
        return loadArgs(system, global, out, warmupSeconds);
    }

    /** As {@link #loadArgs(SystemSpec, int, Path)}, with its own warm-up. */
    public String[] loadArgs(SystemSpec system, int global, Path out, int warmup) {
        List<String> flags = new ArrayList<>(system.loadFlags());
        flags.addAll(List.of(
                "--workload", workload,
                "--global", Integer.toString(global),
                "--clients", Integer.toString(clients),
                "--duration", Integer.toString(durationSeconds),
                "--warmup", Integer.toString(warmup),
                "--keys-per-partition", Integer.toString(keysPerPartition),
                "--out", out.toString()));
        return flags.toArray(new String[0]);
    }
}
