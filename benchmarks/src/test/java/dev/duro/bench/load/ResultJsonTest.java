package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A load run's result.json: its fields, their rounding, and that it reads back as written. */
class ResultJsonTest {
    @TempDir
    Path out;

    /** 10 s of workload A: 1,500 local and 500 global commits, 12 aborts, 3 errors, servers in their processes. */
    private static Report report() {
        Histogram local = new Histogram(3);
        Histogram global = new Histogram(3);
        for (int i = 1; i <= 1_000; i++) {
            local.recordValue(i * 10L); // 0.01 ms to 10 ms
            global.recordValue(i * 20L);
        }
        Map<TxKind, Long> committed = new EnumMap<>(TxKind.class);
        committed.put(TxKind.LOCAL, 1_500L);
        committed.put(TxKind.GLOBAL, 500L);
        committed.put(TxKind.READ_ONLY, 0L);
        Map<TxKind, Histogram> latencies = new EnumMap<>(TxKind.class);
        latencies.put(TxKind.LOCAL, local);
        latencies.put(TxKind.GLOBAL, global);
        latencies.put(TxKind.READ_ONLY, new Histogram(3));
        Map<String, Long> aborted = new TreeMap<>(Map.of("VALIDATION", 10L, "TIMEOUT", 2L));
        return new Report(
                "duro-2x3",
                Fixtures.options(),
                10,
                committed,
                aborted,
                3,
                latencies,
                new Report.Cpu(0.5, 2.0, false),
                Double.NaN,
                Double.NaN,
                null);
    }

    @Test
    void aWrittenReportReadsBackAsTheSameResult() throws IOException {
        Report report = report();
        report.write(out);
        assertEquals(report.json(), ResultJson.read(out.resolve("result.json")));
    }

    @Test
    void theFileKeepsItsFieldNamesInTheirOrder() throws IOException {
        report().write(out);
        JsonNode json = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(
                List.of(
                        "system",
                        "workload",
                        "globalPercent",
                        "globalPartitions",
                        "partitions",
                        "replicas",
                        "clients",
                        "seconds",
                        "cores",
                        "committedPerSecond",
                        "abortRate",
                        "errors",
                        "cpuMillisPerCommit",
                        "serverCpuMillisPerCommit",
                        "clientCpuMillisPerCommit",
                        "commandsPerLogEntry",
                        "logEntriesPerSecond",
                        "serverCpuMicrosByThread",
                        "aborts",
                        "classes"),
                fields);
        List<String> classes = new ArrayList<>();
        json.get("classes").fieldNames().forEachRemaining(classes::add);
        assertEquals(List.of("LOCAL", "GLOBAL", "READ_ONLY"), classes);
        List<String> latencyFields = new ArrayList<>();
        json.get("classes").get("LOCAL").fieldNames().forEachRemaining(latencyFields::add);
        assertEquals(List.of("committed", "p50Ms", "p90Ms", "p99Ms", "p999Ms", "maxMs"), latencyFields);
        List<String> aborts = new ArrayList<>();
        json.get("aborts").fieldNames().forEachRemaining(aborts::add);
        assertEquals(List.of("TIMEOUT", "VALIDATION"), aborts);
    }

    @Test
    void figuresAreRoundedAsBeforeAndUnmeasuredOnesAreNull() throws IOException {
        report().write(out);
        String text = Files.readString(out.resolve("result.json"));
        assertTrue(text.contains("\"seconds\": 10.000,"), text);
        assertTrue(text.contains("\"committedPerSecond\": 200.0,"), text);
        assertTrue(text.contains("\"abortRate\": 0.00596,"), text); // 12 of 2,012
        assertTrue(text.contains("\"cpuMillisPerCommit\": 1.2500,"), text);
        ResultJson json = ResultJson.read(out.resolve("result.json"));
        assertEquals(new BigDecimal("1.0000"), json.serverCpuMillisPerCommit());
        assertEquals(new BigDecimal("0.2500"), json.clientCpuMillisPerCommit());
        assertNull(json.commandsPerLogEntry());
        assertNull(json.logEntriesPerSecond());
        assertEquals(1_500, json.classes().get("LOCAL").committed());
        assertEquals(new BigDecimal("5.003"), json.classes().get("LOCAL").p50Ms());
        assertEquals(Map.of("TIMEOUT", 2L, "VALIDATION", 10L), json.aborts());
        assertEquals("A", json.workload());
    }
}
