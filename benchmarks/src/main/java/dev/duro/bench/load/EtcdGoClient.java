package dev.duro.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Beyond warm-up and measuring: connecting, and finishing the transactions in flight at the end. */
    private static final long GRACE_SECONDS = 120;

    private EtcdGoClient() {}

    /** Runs the load of {@code options} against {@code etcd} with the Go client, and reads its result. */
    static Report run(EtcdTarget etcd, LoadOptions options, PrintStream console)
            throws IOException, InterruptedException {
        ReadWriteTransactions shape = Objects.requireNonNull(
                options.workload().readWriteShape(), "LoadOptions admits only read-write workloads for the Go client");
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
        if (EtcdTarget.serializableReads()) {
            command.add("-serializable");
        }
        Process process = new ProcessBuilder(command).start();
        AtomicLong serverCpuBegin = new AtomicLong(-1);
        AtomicLong serverCpuEnd = new AtomicLong(-1);
        Thread pump = new Thread(
                () -> pumpErrors(process.getErrorStream(), console, etcd, serverCpuBegin, serverCpuEnd),
                "etcd-client-stderr");
        pump.setDaemon(true);
        pump.start();
        byte[] output;
        try (InputStream stdout = process.getInputStream()) {
            output = stdout.readAllBytes();
        }
        long limit = options.warmup().toSeconds() + options.duration().toSeconds() + GRACE_SECONDS;
        if (!process.waitFor(limit, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("the etcd client did not finish within " + limit + " s");
        }
        pump.join(5_000);
        if (process.exitValue() != 0) {
            throw new IOException("the etcd client (" + binary + ") exited with status " + process.exitValue());
        }
        double serverCpuSeconds = serverCpuBegin.get() < 0 || serverCpuEnd.get() < 0
                ? Double.NaN
                : (serverCpuEnd.get() - serverCpuBegin.get()) / 1e9;
        return report(etcd.name(), options, shape, JSON.readTree(output), serverCpuSeconds);
    }

    /** The report of one run from the client's JSON result. */
    static Report report(
            String system, LoadOptions options, ReadWriteTransactions shape, JsonNode result, double serverCpuSeconds) {
        TxKind kind = shape.readOnly() ? TxKind.READ_ONLY : TxKind.LOCAL;
        Map<TxKind, Long> committed = new EnumMap<>(TxKind.class);
        Map<TxKind, Histogram> latencies = new EnumMap<>(TxKind.class);
        for (TxKind each : TxKind.values()) {
            committed.put(each, 0L);
            latencies.put(each, new Histogram(3));
        }
        committed.put(kind, field(result, "committed").asLong());
        Histogram histogram = Objects.requireNonNull(latencies.get(kind));
        for (JsonNode micros : field(result, "latenciesMicros")) {
            histogram.recordValue(Math.max(0, Math.min(micros.asLong(), 60_000_000L)));
        }
        Map<String, Long> aborted = new TreeMap<>();
        long compareFailed = field(result, "aborted").asLong();
        if (compareFailed > 0) {
            aborted.put("compare-failed", compareFailed);
        }
        return new Report(
                system,
                options,
                field(result, "seconds").asDouble(),
                committed,
                aborted,
                field(result, "errors").asLong(),
                latencies,
                new Report.Cpu(field(result, "cpuSeconds").asDouble(), serverCpuSeconds, false),
                Double.NaN,
                Double.NaN);
    }

    private static JsonNode field(JsonNode result, String name) {
        JsonNode value = result.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalStateException("the etcd client's result lacks '" + name + "': " + result);
        }
        return value;
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
     * The client binary, built with {@code go build} when it is missing or older than its sources. The Go module
     * cache fills from the module proxy on the first build.
     */
    static synchronized Path build(PrintStream console) throws IOException, InterruptedException {
        Path source = Files.isDirectory(SOURCE_IN_REPOSITORY) ? SOURCE_IN_REPOSITORY : SOURCE_IN_MODULE;
        if (!Files.isDirectory(source)) {
            throw new IOException("the etcd client's sources are not at " + SOURCE_IN_REPOSITORY.toAbsolutePath()
                    + ": run ./duro bench from the repository's root");
        }
        // benchmarks/target/etcd-client, beside the module's other build output
        Path binary = source.toAbsolutePath().resolveSibling("target").resolve("etcd-client");
        if (Files.exists(binary) && !olderThanSources(source, Files.getLastModifiedTime(binary))) {
            return binary;
        }
        String go = goCommand();
        console.println("building the etcd client (" + source + ") with " + go + " ...");
        Files.createDirectories(Objects.requireNonNull(binary.getParent()));
        Process build = new ProcessBuilder(go, "build", "-o", binary.toString(), ".")
                .directory(source.toFile())
                .redirectErrorStream(true)
                .start();
        String output;
        try (InputStream in = build.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!build.waitFor(10, TimeUnit.MINUTES) || build.exitValue() != 0) {
            build.destroyForcibly();
            throw new IOException("building the etcd client failed:\n" + output);
        }
        return binary;
    }

    private static boolean olderThanSources(Path sources, FileTime built) throws IOException {
        for (String name : List.of("main.go", "go.mod", "go.sum")) {
            Path file = sources.resolve(name);
            if (Files.exists(file) && Files.getLastModifiedTime(file).compareTo(built) > 0) {
                return true;
            }
        }
        return false;
    }

    /** {@code go} on the PATH, or where the Go toolchain installs itself. */
    private static String goCommand() throws IOException {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
                return Path.of(dir, "go").toString();
            }
        }
        Path usual = Path.of("/usr/local/go/bin/go");
        if (Files.isExecutable(usual)) {
            return usual.toString();
        }
        throw new IOException("the etcd baseline's client needs the Go toolchain (go on the PATH or " + usual
                + "); or drive etcd through jetcd with --etcd-client jetcd");
    }
}
