package dev.duro.bench.load;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.HdrHistogram.Histogram;

/**
 * The etcd baseline's lean client: {@code benchmarks/etcd-client}, a Go program on the etcd v3 client module, built
 * here with the Go toolchain and run as a process of its own against the members of an {@link EtcdTarget}. It runs
 * the same read-write transactions as the Java clients give Duro (get every key, then one {@code Txn} comparing
 * their mod revisions and putting the writes), so etcd is driven the way its users drive it, and the client's CPU is
 * its own process's, apart from the members' and from this JVM's (docs/performance.md, "The etcd baseline").
 *
 * <p>The program marks the start and the end of its measured window on its error stream; the members' CPU is read
 * at those marks. Its other output there (progress) is passed on to the console.
 */
final class EtcdGoClient {
    /** The Go module: {@code benchmarks/etcd-client} from the repository's root, where {@code ./duro bench} runs. */
    private static final Path SOURCE_IN_REPOSITORY = Path.of("benchmarks", "etcd-client");
    /** The same from the module's own folder, where its tests run. */
    private static final Path SOURCE_IN_MODULE = Path.of("etcd-client");

    static final String MEASURE_BEGIN = "duro-measure-begin";
    static final String MEASURE_END = "duro-measure-end";

    static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES, true)
            .configure(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES, true)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    /** Beyond warm-up and measuring: connecting, and finishing the transactions in flight at the end. */
    private static final long GRACE_SECONDS = 120;
    /** Where the Go toolchain is looked for: the PATH, then where it installs itself. */
    private static final List<String> GO_COMMANDS = List.of("go", "/usr/local/go/bin/go");

    private EtcdGoClient() {}

    /** What the client writes on its standard output when it is done; every transaction committed has a latency. */
    record Result(long aborted, long errors, double seconds, double cpuSeconds, long[] latenciesMicros) {}

    /** Runs the load of {@code options} against {@code etcd} with the Go client, and reads its result. */
    static Report run(EtcdTarget etcd, LoadOptions options, PrintStream console)
            throws IOException, InterruptedException {
        ReadWriteTransactions shape = shapeOf(options);
        Path binary = build(console);
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "-endpoints",
                String.join(",", etcd.clientUrls()),
                "-clients",
                Integer.toString(options.clients()),
                "-keys",
                Integer.toString(options.keysPerPartition()),
                "-reads",
                Integer.toString(shape.reads()),
                "-writes",
                Integer.toString(shape.writes()),
                "-value-bytes",
                Integer.toString(shape.valueBytes()),
                "-warmup",
                Long.toString(options.warmup().toSeconds()),
                "-duration",
                Long.toString(options.duration().toSeconds())));
        if (etcd.serializable()) {
            command.add("-serializable");
        }
        Path output = Files.createTempFile("etcd-client", ".json");
        Process process =
                new ProcessBuilder(command).redirectOutput(output.toFile()).start();
        try {
            AtomicLong serverCpuBegin = new AtomicLong(-1);
            AtomicLong serverCpuEnd = new AtomicLong(-1);
            Thread pump = new Thread(
                    () -> pumpErrors(process.getErrorStream(), console, etcd, serverCpuBegin, serverCpuEnd),
                    "etcd-client-stderr");
            pump.setDaemon(true);
            pump.start();
            long limit = options.warmup().toSeconds() + options.duration().toSeconds() + GRACE_SECONDS;
            if (!process.waitFor(limit, TimeUnit.SECONDS)) {
                throw new IOException("the etcd client did not finish within " + limit + " s");
            }
            pump.join(5_000);
            if (process.exitValue() != 0) {
                throw new IOException("the etcd client (" + binary + ") exited with status " + process.exitValue());
            }
            if (serverCpuBegin.get() < 0 || serverCpuEnd.get() < 0) {
                throw new IOException("the etcd client did not mark its measured window (" + MEASURE_BEGIN + ", "
                        + MEASURE_END + " on its error stream), so the members' CPU is unknown");
            }
            double serverCpuSeconds = (serverCpuEnd.get() - serverCpuBegin.get()) / 1e9;
            return report(etcd.name(), options, JSON.readValue(output.toFile(), Result.class), serverCpuSeconds);
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
            Files.deleteIfExists(output);
        }
    }

    private static ReadWriteTransactions shapeOf(LoadOptions options) {
        return Objects.requireNonNull(
                options.workload().readWriteShape(), "LoadOptions admits only read-write workloads for the Go client");
    }

    /** The report of one run from the client's result. */
    static Report report(String system, LoadOptions options, Result result, double serverCpuSeconds) {
        TxKind kind = shapeOf(options).readOnly() ? TxKind.READ_ONLY : TxKind.LOCAL;
        Map<TxKind, Long> committed = new EnumMap<>(TxKind.class);
        Map<TxKind, Histogram> latencies = new EnumMap<>(TxKind.class);
        for (TxKind each : TxKind.values()) {
            committed.put(each, 0L);
            latencies.put(each, new Histogram(3));
        }
        committed.put(kind, (long) result.latenciesMicros().length);
        Histogram histogram = Objects.requireNonNull(latencies.get(kind));
        for (long micros : result.latenciesMicros()) {
            histogram.recordValue(Math.max(0, Math.min(micros, LoadGenerator.LATENCY_MAX_MICROS)));
        }
        Map<String, Long> aborted = new TreeMap<>();
        if (result.aborted() > 0) {
            aborted.put("compare-failed", result.aborted());
        }
        return new Report(
                system,
                options,
                result.seconds(),
                committed,
                aborted,
                result.errors(),
                latencies,
                new Report.Cpu(result.cpuSeconds(), serverCpuSeconds, false),
                Double.NaN,
                Double.NaN,
                null);
    }

    /**
     * Passes the client's error stream on to the console, split at carriage returns and newlines so its progress
     * line updates in place, and reads the members' CPU at the measure marks.
     */
    private static void pumpErrors(
            InputStream errors, PrintStream console, EtcdTarget etcd, AtomicLong cpuBegin, AtomicLong cpuEnd) {
        ByteArrayOutputStream piece = new ByteArrayOutputStream();
        try (errors) {
            for (int b = errors.read(); b >= 0; b = errors.read()) {
                if (b != '\r' && b != '\n') {
                    piece.write(b);
                    continue;
                }
                String text = piece.toString(StandardCharsets.UTF_8);
                piece.reset();
                if (text.equals(MEASURE_BEGIN)) {
                    cpuBegin.set(etcd.serverCpuNanos());
                } else if (text.equals(MEASURE_END)) {
                    cpuEnd.set(etcd.serverCpuNanos());
                } else {
                    console.print(text);
                    console.print((char) b);
                    console.flush();
                }
            }
            console.print(piece.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            console.println("(the etcd client's error stream failed: " + e.getMessage() + ")");
        }
    }

    /**
     * The client binary, built with {@code go build}, which rebuilds only what changed (and fills the Go module cache
     * from the module proxy the first time). Without the Go toolchain, a binary built before is used as it is.
     */
    static synchronized Path build(PrintStream console) throws IOException, InterruptedException {
        Path source = Files.isDirectory(SOURCE_IN_REPOSITORY) ? SOURCE_IN_REPOSITORY : SOURCE_IN_MODULE;
        if (!Files.isDirectory(source)) {
            throw new IOException("the etcd client's sources are not at " + SOURCE_IN_REPOSITORY.toAbsolutePath()
                    + ": run ./duro bench from the repository's root");
        }
        // benchmarks/target/etcd-client, beside the module's other build output
        Path binary = source.toAbsolutePath().resolveSibling("target").resolve("etcd-client");
        Files.createDirectories(Objects.requireNonNull(binary.getParent()));
        Path log = Files.createTempFile("etcd-client-build", ".log");
        try {
            Process build = startGoBuild(source, binary, log);
            if (build == null) {
                if (Files.isExecutable(binary)) {
                    return binary;
                }
                throw new IOException("the etcd baseline's client needs the Go toolchain (one of " + GO_COMMANDS
                        + "); or drive etcd through jetcd with --etcd-client jetcd");
            }
            try {
                if (!build.waitFor(10, TimeUnit.MINUTES) || build.exitValue() != 0) {
                    throw new IOException(
                            "building the etcd client failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
                }
            } finally {
                if (build.isAlive()) {
                    build.destroyForcibly();
                }
            }
            return binary;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** {@code go build} of {@code source} into {@code binary}, output to {@code log}; null without the toolchain. */
    private static @Nullable Process startGoBuild(Path source, Path binary, Path log) {
        for (String go : GO_COMMANDS) {
            try {
                return new ProcessBuilder(go, "build", "-o", binary.toString(), ".")
                        .directory(source.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
            } catch (IOException notThere) {
                // the next place
            }
        }
        return null;
    }
}
