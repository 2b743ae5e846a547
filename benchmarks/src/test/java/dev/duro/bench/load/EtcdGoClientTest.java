package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** How the load generator reads the Go etcd client's result into its report. */
class EtcdGoClientTest {

    @Test
    void countsLatenciesAndBothCpusReachTheReport() throws Exception {
        EtcdGoClient.Result result = parse("{\"aborted\":2,\"errors\":1,"
                + "\"seconds\":2.0,\"cpuSeconds\":0.5,\"latenciesMicros\":[1000,2000,3000]}");
        Report report = EtcdGoClient.report("etcd-3", LoadOptions.parse("--system", "etcd"), result, 1.5);
        assertEquals(3, report.committed(TxKind.LOCAL));
        assertEquals(0, report.committed(TxKind.READ_ONLY));
        assertEquals(1.5, report.committedPerSecond());
        assertEquals(3, report.latency(TxKind.LOCAL).getTotalCount());
        assertEquals(2000.0, (double) report.latency(TxKind.LOCAL).getValueAtPercentile(50), 2.0);
        assertEquals(1, report.errors());
        assertEquals(2, report.abortedTotal());
        assertEquals(0.5, report.cpu().client());
        assertEquals(1.5, report.cpu().server());
    }

    @Test
    void aReadOnlyWorkloadsCommitsAreReadOnly() throws Exception {
        EtcdGoClient.Result result =
                parse("{\"aborted\":0,\"errors\":0,\"seconds\":1.0," + "\"cpuSeconds\":0.1,\"latenciesMicros\":[500]}");
        LoadOptions options = LoadOptions.parse("--system", "etcd", "--workload", "C");
        Report report = EtcdGoClient.report("etcd-3", options, result, 0.2);
        assertEquals(1, report.committed(TxKind.READ_ONLY));
        assertEquals(0, report.committed(TxKind.LOCAL));
    }

    @Test
    void aResultWithoutAFieldIsRefusedNamingIt() {
        IOException refused = assertThrows(
                IOException.class, () -> parse("{\"aborted\":0,\"errors\":0,\"seconds\":1.0,\"latenciesMicros\":[]}"));
        assertTrue(refused.getMessage().contains("'cpuSeconds'"), refused.getMessage());
    }

    /** Parses as the client's run does: through {@link EtcdGoClient#JSON}. */
    private static EtcdGoClient.Result parse(String json) throws IOException {
        return EtcdGoClient.JSON.readValue(json, EtcdGoClient.Result.class);
    }
}
