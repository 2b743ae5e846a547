package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The load generator's command line, as {@code ./duro bench} and {@code bench compare} parse it. */
class LoadOptionsTest {
    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse(args))
                .getMessage();
    }

    @Test
    void noOptionsRunWorkloadAOnTwoPartitionsOfThreeReplicas() {
        LoadOptions o = LoadOptions.parse();
        assertEquals(Workload.A, o.workload());
        assertEquals(0, o.globalPercent());
        assertEquals(2, o.globalPartitions());
        assertEquals(2, o.partitions());
        assertEquals(3, o.replicas());
        assertEquals(64, o.clients());
        assertEquals(Duration.ofSeconds(20), o.duration());
        assertEquals(Duration.ofSeconds(10), o.warmup());
        assertEquals(100_000, o.keysPerPartition());
        assertEquals(0.0, o.zipfSkew());
        assertNull(o.cluster());
        assertTrue(o.outputDirectory().startsWith(Path.of("benchmarks", "results")), o.outputDirectory() + "");
        assertEquals(SystemKind.DURO, o.system());
        assertFalse(o.inProcess());
        assertEquals(List.of(), o.serverPids());
        assertEquals(Map.of(), o.nodeSettings());
    }

    @Test
    void everyOptionReachesItsField() {
        LoadOptions o = LoadOptions.parse(
                "--workload",
                "tpcb",
                "--global",
                "30",
                "--global-partitions",
                "3",
                "--partitions",
                "4",
                "--replicas",
                "5",
                "--clients",
                "7",
                "--duration",
                "8",
                "--warmup",
                "9",
                "--jit-settle",
                "0",
                "--keys-per-partition",
                "1000",
                "--zipf",
                "0.5",
                "--system",
                "DUR",
                "--in-process",
                "--tls",
                "--async-clients",
                "--set",
                "raft.batch-size = 16",
                "--set",
                "store.window=9",
                "--out",
                "/tmp/run");
        assertEquals(Workload.TPCB, o.workload());
        assertEquals(30, o.globalPercent());
        assertEquals(3, o.globalPartitions());
        assertEquals(4, o.partitions());
        assertEquals(5, o.replicas());
        assertEquals(7, o.clients());
        assertEquals(Duration.ofSeconds(8), o.duration());
        assertEquals(Duration.ofSeconds(9), o.warmup());
        assertEquals(Duration.ZERO, o.jitSettleMax());
        assertEquals(
                Duration.ofSeconds(99), o.withWarmup(Duration.ofSeconds(99)).warmup());
        assertEquals(o, o.withWarmup(Duration.ofSeconds(99)).withWarmup(o.warmup()), "only the warm-up changes");
        assertEquals(Duration.ofSeconds(180), LoadOptions.parse().jitSettleMax(), "warm JVMs unless told otherwise");
        IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse("--jit-settle", "-1"));
        assertTrue(negative.getMessage().contains("--jit-settle"), negative.getMessage());
        assertEquals(1000, o.keysPerPartition());
        assertEquals(0.5, o.zipfSkew());
        assertEquals(SystemKind.DUR, o.system());
        assertTrue(o.inProcess());
        assertTrue(o.tls());
        assertTrue(o.asyncClients());
        assertFalse(LoadOptions.parse().asyncClients(), "a thread per client unless asked");
        assertEquals(Map.of("raft.batch-size", "16", "store.window", "9"), o.nodeSettings());
        assertEquals(Path.of("/tmp/run"), o.outputDirectory());

        assertFalse(LoadOptions.parse().tls(), "plaintext unless asked");
        IllegalArgumentException tlsElsewhere =
                assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse("--tls", "--system", "etcd"));
        assertTrue(tlsElsewhere.getMessage().contains("--tls"), tlsElsewhere.getMessage());

        LoadOptions existing = LoadOptions.parse("--cluster", "127.0.0.1:7101", "--server-pids", "12, 34,56");
        assertEquals("127.0.0.1:7101", existing.cluster());
        assertEquals(List.of(12L, 34L, 56L), existing.serverPids());
    }

    @Test
    void workloadDefaultsFollowTheWorkloadWhereTheClusterAllowsThem() {
        assertEquals(50, LoadOptions.parse("--workload", "social").globalPercent());
        assertEquals(
                0,
                LoadOptions.parse("--workload", "social", "--partitions", "1").globalPercent());
        assertEquals(0.99, LoadOptions.parse("--workload", "YCSB-A").zipfSkew());
    }

    @Test
    void asynchronousClientsDriveDuroWithoutScans() {
        String etcd = refusal("--async-clients", "--system", "etcd");
        assertTrue(etcd.contains("--async-clients"), etcd);
        String scans = refusal("--async-clients", "--workload", "E");
        assertTrue(scans.contains("--async-clients") && scans.contains("ycsb-e"), scans);
        assertTrue(LoadOptions.parse("--async-clients", "--system", "dur", "--workload", "social")
                .asyncClients());
    }

    @Test
    void theLastOfARepeatedOptionWins() {
        assertEquals(8, LoadOptions.parse("--clients", "4", "--clients", "8").clients());
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedNamingTheOptionAndTheValue() {
        String message = refusal("--duration", "abc");
        assertTrue(message.contains("'--duration'") && message.contains("'abc'"), message);
        message = refusal("--zipf", "steep");
        assertTrue(message.contains("'--zipf'") && message.contains("'steep'"), message);
        message = refusal("--system", "mysql");
        assertTrue(message.contains("'--system'") && message.contains("mysql"), message);
        message = refusal("--workload", "Z");
        assertTrue(message.contains("'--workload'") && message.contains("unknown workload Z"), message);
        message = refusal("--set", "no-equals-sign");
        assertTrue(message.contains("'--set'") && message.contains("KEY=VALUE"), message);
    }

    @Test
    void anOutOfRangeValueOrAMissingValueOrAnUnknownOptionIsRefusedNamingIt() {
        assertTrue(refusal("--clients", "0").contains("--clients must be in [1, 10000]"));
        assertTrue(refusal("--global", "101").contains("--global must be in [0, 100]"));
        assertTrue(refusal("--duration").contains("'--duration'"));
        assertTrue(refusal("--bogus").contains("'--bogus'"));
    }

    @Test
    void etcdIsDrivenByTheGoClientUnlessJetcdIsAskedForAndOnlyWhereTheGoClientRunsTheWorkload() {
        assertFalse(LoadOptions.parse("--system", "etcd").etcdThroughJetcd());
        assertTrue(
                LoadOptions.parse("--system", "etcd", "--etcd-client", "jetcd").etcdThroughJetcd());
        assertFalse(
                LoadOptions.parse("--system", "etcd", "--workload", "pdur-2").etcdThroughJetcd());
        assertTrue(refusal("--system", "etcd", "--workload", "E").contains("--etcd-client jetcd"));
        assertTrue(refusal("--system", "etcd", "--zipf", "0.9").contains("--zipf"));
        assertTrue(LoadOptions.parse("--system", "etcd", "--workload", "E", "--etcd-client", "jetcd")
                .etcdThroughJetcd());
        assertTrue(refusal("--etcd-client", "jetcd").contains("--etcd-client"));
        assertTrue(refusal("--system", "etcd", "--etcd-client", "rust").contains("--etcd-client must be go or jetcd"));
    }

    @Test
    void workloadListAsksForTheListInsteadOfARun() {
        LoadCommand command = new LoadCommand(System.out);
        command.newCommandLine().parseArgs("--workload", "list");
        assertTrue(command.listWorkloads());
    }
}
