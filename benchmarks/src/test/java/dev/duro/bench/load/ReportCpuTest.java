package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server and client CPU lines scripts read, and the options that decide what can be measured. */
class ReportCpuTest {
    @TempDir
    Path out;

    private static Report report(Report.Cpu cpu) {
        Histogram latency = new Histogram(3);
        latency.recordValue(1_000);
        return new Report(
                "duro-2x3",
                Fixtures.options(),
                10,
                Map.of(TxKind.LOCAL, 2_000L),
                Map.of(),
                0,
                Map.of(TxKind.LOCAL, latency),
                cpu,
                Double.NaN,
                Double.NaN,
                null);
    }

    private static String printed(Report report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void separateServerProcessesReportBothLinesAndTheirSum() throws IOException {
        Report report = report(new Report.Cpu(0.5, 2.0, false)); // 2,000 commits
        String text = printed(report);
        assertTrue(text.contains("\nserver CPU: 1.000 ms per committed tx\n"), text);
        assertTrue(text.contains("\nclient CPU: 0.250 ms per committed tx\n"), text);
        assertTrue(text.contains("process CPU: 1.250 ms per committed tx"), text);
        report.write(out);
        ResultJson json = ResultJson.read(out.resolve("result.json"));
        assertEquals(new BigDecimal("1.0000"), json.serverCpuMillisPerCommit());
        assertEquals(new BigDecimal("0.2500"), json.clientCpuMillisPerCommit());
        assertEquals(new BigDecimal("1.2500"), json.cpuMillisPerCommit());
    }

    @Test
    void serversInTheLoadGeneratorsJvmCannotBeToldApart() throws IOException {
        Report report = report(new Report.Cpu(3.0, Double.NaN, true));
        String text = printed(report);
        assertTrue(text.contains("\nserver CPU: n/a ms per committed tx (the servers run in this process"), text);
        assertTrue(text.contains("\nclient CPU: n/a ms per committed tx (the clients share this process"), text);
        assertEquals(3.0, report.cpuSeconds());
        report.write(out);
        String json = Files.readString(out.resolve("result.json"));
        assertTrue(json.contains("\"serverCpuMillisPerCommit\": null"), json);
        assertTrue(json.contains("\"clientCpuMillisPerCommit\": null"), json);
        assertTrue(json.contains("\"aborts\": {},"), json);
    }

    @Test
    void anExistingClusterWithoutPidsReportsOnlyTheClient() {
        String text = printed(report(new Report.Cpu(0.2, Double.NaN, false)));
        assertTrue(text.contains("\nserver CPU: n/a ms per committed tx (not measured: give --server-pids"), text);
        assertTrue(text.contains("\nclient CPU: 0.100 ms per committed tx\n"), text);
    }

    @Test
    void optionsForWhereTheNodesRun() {
        assertEquals(false, LoadOptions.parse(new String[0]).inProcess());
        assertEquals(true, LoadOptions.parse(new String[] {"--in-process"}).inProcess());
        LoadOptions existing =
                LoadOptions.parse(new String[] {"--cluster", "127.0.0.1:7101", "--server-pids", "12, 34,56"});
        assertEquals(List.of(12L, 34L, 56L), existing.serverPids());

        IllegalArgumentException orphan = assertThrows(
                IllegalArgumentException.class, () -> LoadOptions.parse(new String[] {"--server-pids", "12"}));
        assertTrue(orphan.getMessage().contains("--server-pids names the nodes of --cluster"), orphan.getMessage());
        IllegalArgumentException notPids = assertThrows(
                IllegalArgumentException.class,
                () -> LoadOptions.parse(new String[] {"--cluster", "127.0.0.1:7101", "--server-pids", "n1"}));
        assertTrue(notPids.getMessage().contains("'--server-pids'"), notPids.getMessage());
        assertTrue(notPids.getMessage().contains("'n1'"), notPids.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> LoadOptions.parse(new String[] {"--in-process", "--system", "etcd"}));
    }
}
