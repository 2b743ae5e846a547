package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** How the load generator reads the Go etcd client's result into its report. */
class EtcdGoClientTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ReadWriteTransactions WORKLOAD_A = new ReadWriteTransactions(4, 4, 4);

    @Test
    void countsLatenciesAndBothCpusReachTheReport() throws Exception {
        JsonNode result = JSON.readTree("{\"committed\":3,\"aborted\":2,\"errors\":1,\"lastError\":\"x\","
                + "\"seconds\":2.0,\"cpuSeconds\":0.5,\"latenciesMicros\":[1000,2000,3000]}");
        Report report = EtcdGoClient.report("etcd-3", LoadOptions.parse("--system", "etcd"), WORKLOAD_A, result, 1.5);
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
        JsonNode result = JSON.readTree("{\"committed\":1,\"aborted\":0,\"errors\":0,\"seconds\":1.0,"
                + "\"cpuSeconds\":0.1,\"latenciesMicros\":[500]}");
        LoadOptions options = LoadOptions.parse("--system", "etcd", "--workload", "C");
        Report report = EtcdGoClient.report("etcd-3", options, new ReadWriteTransactions(8, 0, 4), result, 0.2);
        assertEquals(1, report.committed(TxKind.READ_ONLY));
        assertEquals(0, report.committed(TxKind.LOCAL));
    }

    @Test
    void aResultWithoutAFieldIsRefusedNamingIt() throws Exception {
        JsonNode result =
                JSON.readTree("{\"committed\":1,\"aborted\":0,\"errors\":0,\"seconds\":1.0,\"latenciesMicros\":[]}");
        IllegalStateException refused = assertThrows(
                IllegalStateException.class,
                () -> EtcdGoClient.report("etcd-3", LoadOptions.parse("--system", "etcd"), WORKLOAD_A, result, 0));
        assertTrue(refused.getMessage().contains("'cpuSeconds'"), refused.getMessage());
    }
}
