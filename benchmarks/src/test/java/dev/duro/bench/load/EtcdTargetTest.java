package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.duro.core.Bytes;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The etcd baseline's transaction shape against a real one-member etcd, started by the test when
 * {@code /usr/bin/etcd} exists (skipped otherwise: install Debian's etcd-server package to run it).
 */
class EtcdTargetTest {
    private static EtcdTarget target;

    @BeforeAll
    static void startEtcd() throws IOException {
        assumeTrue(
                EtcdCluster.isInstalled(),
                "skipped: " + EtcdCluster.ETCD_BINARY + " is missing (apt-get install -y etcd-server to run it)");
        target = new EtcdTarget(EtcdCluster.start(1, new PrintStream(OutputStream.nullOutputStream())), false);
    }

    @AfterAll
    static void stopEtcd() {
        if (target != null) {
            target.close();
        }
    }

    /**
     * The Go client (built here with the Go toolchain, as .ci/run puts it on the PATH) runs workload A against the
     * member: every measured commit has its latency, and the client's and the member's CPU are measured apart.
     */
    @Test
    void theGoClientRunsTheWorkloadAndReportsItsOwnCpuApartFromTheMembers(@TempDir Path out)
            throws IOException, InterruptedException {
        LoadOptions options = LoadOptions.parse(
                "--system",
                "etcd",
                "--workload",
                "A",
                "--clients",
                "8",
                "--keys-per-partition",
                "1000",
                "--warmup",
                "1",
                "--duration",
                "3",
                "--out",
                out.toString());
        Report report = new LoadGenerator(options, new PrintStream(OutputStream.nullOutputStream())).run(target);
        assertTrue(report.committed() > 0, "nothing committed");
        assertTrue(
                report.latency(TxKind.LOCAL).getValueAtPercentile(50) >= 100,
                "a transaction of five round trips to etcd takes more than 100 µs: p50 "
                        + report.latency(TxKind.LOCAL).getValueAtPercentile(50));
        assertEquals(0, report.errors());
        assertTrue(report.cpu().client() > 0, "client CPU " + report.cpu().client());
        assertTrue(report.cpu().server() > 0, "member CPU " + report.cpu().server());
        assertTrue(report.seconds() >= 2.5 && report.seconds() < 10, "measured " + report.seconds() + " s");
    }

    @Test
    void aPlanReadsThenWritesWhatItComputedFromTheValuesRead() {
        Bytes key = Bytes.utf8("counter");
        List<List<Bytes>> seen = new ArrayList<>();
        TxPlan increment = plan(TxKind.LOCAL, key, values -> {
            seen.add(new ArrayList<>(values));
            int next =
                    values.get(0) == null ? 1 : Integer.parseInt(values.get(0).toUtf8()) + 1;
            return Map.of(key, Bytes.utf8(Integer.toString(next)));
        });
        target.execute(increment);
        target.execute(increment);
        assertNull(seen.get(0).get(0));
        assertEquals(Bytes.utf8("1"), seen.get(1).get(0));
    }

    @Test
    void aWriteBetweenTheReadsAndTheTxnFailsTheCompareAndIsAnAbort() {
        Bytes key = Bytes.utf8("contended");
        target.execute(TxPlan.of(TxKind.LOCAL, List.of(key), Map.of(key, Bytes.utf8("before"))));
        TxPlan overtaken = plan(TxKind.LOCAL, key, values -> {
            // Another client commits to the key after this plan read it and before its Txn.
            target.execute(TxPlan.of(TxKind.LOCAL, List.of(key), Map.of(key, Bytes.utf8("other"))));
            return Map.of(key, Bytes.utf8("mine"));
        });
        PlanAbortedException abort = assertThrows(PlanAbortedException.class, () -> target.execute(overtaken));
        assertEquals("compare-failed", abort.reason());

        List<Bytes> after = new ArrayList<>();
        target.execute(plan(TxKind.LOCAL, key, values -> {
            after.addAll(values);
            return Map.of();
        }));
        assertEquals(List.of(Bytes.utf8("other")), after);
    }

    @Test
    void anAbsentKeyComparesAsRevisionZeroSoTwoCreatorsCannotBothWin() {
        Bytes key = Bytes.utf8("created-once");
        TxPlan create = plan(TxKind.LOCAL, key, values -> {
            target.execute(TxPlan.of(TxKind.LOCAL, List.of(key), Map.of(key, Bytes.utf8("first"))));
            return Map.of(key, Bytes.utf8("second"));
        });
        assertThrows(PlanAbortedException.class, () -> target.execute(create));
    }

    @Test
    void aReadOnlyPlanReadsEveryKeyAndNeverAborts() {
        target.execute(TxPlan.of(TxKind.READ_ONLY, List.of(Bytes.utf8("counter"), Bytes.utf8("nowhere")), Map.of()));
    }

    private static TxPlan plan(
            TxKind kind, Bytes key, java.util.function.Function<List<Bytes>, Map<Bytes, Bytes>> writes) {
        return new TxPlan() {
            @Override
            public TxKind kind() {
                return kind;
            }

            @Override
            public List<Bytes> reads() {
                return List.of(key);
            }

            @Override
            public Map<Bytes, Bytes> writes(List<Bytes> values) {
                return writes.apply(values);
            }
        };
    }
}
