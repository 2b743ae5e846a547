package dev.duro.bench.load;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A load run's {@code result.json}: the run's shape, its throughput, abort rate, CPU per committed transaction and
 * latency percentiles per class of transaction. Figures are decimals rounded to the places that mean something
 * for a run of seconds (throughput to 0.1 tx/s, CPU to 0.1 µs per transaction), written as they are; a figure that
 * was not measured is {@code null}.
 *
 * @param seconds length of the measured period
 * @param cores the load generator's machine's processors
 * @param cpuMillisPerCommit all CPU measured (this process and the server processes) per committed transaction
 * @param serverCpuMillisPerCommit the server processes' CPU per committed transaction; null when they run in the
 *     load generator's JVM or were not named ({@code --cluster} without {@code --server-pids})
 * @param clientCpuMillisPerCommit the clients' process's CPU (the load generator's JVM, or the Go etcd client's) per
 *     committed transaction; null when the servers share the load generator's JVM
 * @param commandsPerLogEntry transactions per log entry (group commit); null unless the nodes run in process
 * @param serverCpuMicrosByThread with {@code --thread-cpu}: microseconds of the servers' CPU per committed
 *     transaction by component of their threads ({@code apply}, {@code logWorker}, ...: docs/performance.md, "CPU by
 *     thread"); null without it
 * @param aborts aborted transactions by reason
 * @param classes latencies by class of transaction ({@link TxKind} names)
 */
public record ResultJson(
        String system,
        String workload,
        int globalPercent,
        int globalPartitions,
        int partitions,
        int replicas,
        int clients,
        @Nullable BigDecimal seconds,
        int cores,
        @Nullable BigDecimal committedPerSecond,
        @Nullable BigDecimal abortRate,
        long errors,
        @Nullable BigDecimal cpuMillisPerCommit,
        @Nullable BigDecimal serverCpuMillisPerCommit,
        @Nullable BigDecimal clientCpuMillisPerCommit,
        @Nullable BigDecimal commandsPerLogEntry,
        @Nullable BigDecimal logEntriesPerSecond,
        @Nullable Map<String, BigDecimal> serverCpuMicrosByThread,
        Map<String, Long> aborts,
        Map<String, LatencyClass> classes) {

    /** Committed transactions of one class and their latency percentiles, in milliseconds. */
    public record LatencyClass(
            long committed,
            @Nullable BigDecimal p50Ms,
            @Nullable BigDecimal p90Ms,
            @Nullable BigDecimal p99Ms,
            @Nullable BigDecimal p999Ms,
            @Nullable BigDecimal maxMs) {}

    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    /** Two-space indents, {@code "name": value} and {@code {}} for no aborts, as the file has always been laid out. */
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")));

    public ResultJson {
        // Copies that keep the given order: the file lists aborts by reason and classes as TxKind declares them.
        aborts = Collections.unmodifiableMap(new LinkedHashMap<>(aborts));
        classes = Collections.unmodifiableMap(new LinkedHashMap<>(classes));
        if (serverCpuMicrosByThread != null) {
            serverCpuMicrosByThread = Collections.unmodifiableMap(new LinkedHashMap<>(serverCpuMicrosByThread));
        }
    }

    /** {@code value} rounded half up to {@code places} decimals; null for NaN (not measured). */
    static @Nullable BigDecimal decimal(double value, int places) {
        return Double.isNaN(value) || Double.isInfinite(value)
                ? null
                : BigDecimal.valueOf(value).setScale(places, RoundingMode.HALF_UP);
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, WRITER.writeValueAsString(this) + "\n", StandardCharsets.UTF_8);
    }

    public static ResultJson read(Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), ResultJson.class);
    }
}
