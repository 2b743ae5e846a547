package dev.duro.bench.compare;

import dev.duro.bench.load.SystemKind;
import dev.duro.bench.load.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Options of {@code ./duro bench compare}. The defaults run the S-DUR paper's Figure 3 matrix (workload A; 0, 10,
 * 50 and 100% global) for Duro 1×3 (= DUR with 3 replicas, the paper's baseline) and 2×3, DUR 1×6 and etcd with
 * 3 members, 3 repetitions of 10 s after 5 s of warm-up each, then a sweep of 8, 32, 64, 128 and 512 clients at 0%
 * global for the latency-against-throughput figure: about 19 minutes of load plus 12 start-ups.
 */
public record CompareOptions(
        String workload,
        int clients,
        int durationSeconds,
        int warmupSeconds,
        int jitSettleSeconds,
        int repetitions,
        List<SystemSpec> systems,
        List<Integer> globals,
        List<Integer> clientSweep,
        int keysPerPartition,
        boolean asyncClients,
        Path outputDirectory) {
    public CompareOptions {
        require(clients >= 1 && clients <= 10_000, "--clients must be in [1, 10000]");
        require(durationSeconds >= 1, "--duration must be >= 1");
        require(warmupSeconds >= 0, "--warmup must be >= 0");
        require(jitSettleSeconds >= 0, "--jit-settle must be >= 0");
        require(repetitions >= 1 && repetitions <= 100, "--repetitions must be in [1, 100]");
        require(!systems.isEmpty(), "--systems must name at least one system");
        require(!globals.isEmpty(), "--globals must name at least one percentage");
        for (int global : globals) {
            require(global >= 0 && global <= 100, "--globals must be percentages in [0, 100]");
        }
        for (int sweepClients : clientSweep) {
            require(sweepClients >= 1 && sweepClients <= 10_000, "--client-sweep must be client counts in [1, 10000]");
        }
        require(keysPerPartition >= 16, "--keys-per-partition must be >= 16");
        require(
                !asyncClients || !Workload.named(workload).scans(),
                "--async-clients runs workloads without scans; --workload " + workload + " scans");
        require(
                systems.stream().map(SystemSpec::name).distinct().count() == systems.size(),
                "--systems names a system twice");
        systems = List.copyOf(systems);
        globals = List.copyOf(globals);
        clientSweep = clientSweep.stream().distinct().sorted().toList();
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The options {@code args} give, as {@code ./duro bench compare} parses them ({@link CompareCommand}).
     *
     * @throws IllegalArgumentException naming the option, when {@code args} are not valid comparison options
     */
    public static CompareOptions parse(String... args) {
        return CompareCommand.parse(args);
    }

    /**
     * Seconds of load the matrix and the client sweep run, the longer first warm-up after each start included (not
     * the start-ups, nor warm-ups extended while the JIT compiles: up to {@code jitSettleSeconds} per run).
     */
    public long loadSeconds() {
        return (long) systems.size()
                * (repetitions * (globals.size() * (durationSeconds + warmupSeconds) + 2L * warmupSeconds)
                        + clientSweep.size() * (long) (durationSeconds + warmupSeconds));
    }

    /** The % global the client sweep runs at: the lowest asked for. */
    public int sweepGlobal() {
        return globals.stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    /** The load generator's flags for one run of {@code system} at {@code global}% global, results in {@code out}. */
    public String[] loadArgs(SystemSpec system, int global, Path out) {
        return loadArgs(system, global, out, warmupSeconds);
    }

    /** As {@link #loadArgs(SystemSpec, int, Path)}, with its own warm-up. */
    public String[] loadArgs(SystemSpec system, int global, Path out, int warmup) {
        return loadArgs(system, global, out, warmup, clients);
    }

    /** As {@link #loadArgs(SystemSpec, int, Path, int)}, with {@code runClients} clients (a point of the sweep). */
    public String[] loadArgs(SystemSpec system, int global, Path out, int warmup, int runClients) {
        List<String> flags = new ArrayList<>(system.loadFlags());
        flags.addAll(List.of(
                "--workload", workload,
                "--global", Integer.toString(global),
                "--clients", Integer.toString(runClients),
                "--duration", Integer.toString(durationSeconds),
                "--warmup", Integer.toString(warmup),
                "--jit-settle", Integer.toString(jitSettleSeconds),
                "--keys-per-partition", Integer.toString(keysPerPartition),
                "--out", out.toString()));
        Workload shape = Workload.named(workload);
        if (asyncClients && system.kind() != SystemKind.ETCD) {
            flags.add("--async-clients"); // etcd keeps its own lean client
        }
        if (system.kind() == SystemKind.ETCD && !shape.runsOnGoEtcdClient(shape.defaultZipfSkew())) {
            flags.addAll(List.of("--etcd-client", "jetcd")); // the Go client runs the read-write workloads only
        }
        return flags.toArray(new String[0]);
    }
}
