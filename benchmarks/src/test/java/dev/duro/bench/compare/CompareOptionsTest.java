package dev.duro.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.bench.load.LoadOptions;
import dev.duro.bench.load.SystemKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompareOptionsTest {
    @Test
    void defaultsRunTheFigureThreeMatrix() {
        CompareOptions o = CompareOptions.parse(new String[0]);
        assertEquals(
                List.of("duro-1x3", "duro-2x3", "dur-1x6", "etcd-3"),
                o.systems().stream().map(SystemSpec::name).toList());
        assertEquals(List.of(0, 10, 50, 100), o.globals());
        assertEquals(64, o.clients());
        assertEquals(3, o.repetitions());
        assertEquals(List.of(8, 32, 64, 128, 512), o.clientSweep());
        assertEquals(0, o.sweepGlobal());
        assertEquals(4 * 3 * (4 * 15 + 10) + 4 * 5 * 15, o.loadSeconds());
        assertEquals(List.of(50, 100, 0, 10), CompareMain.rotated(o.globals(), 2));
    }

    @Test
    void quickShortensEverythingButExplicitFlagsWinWhereverTheyStand() {
        CompareOptions o = CompareOptions.parse(new String[] {"--duration", "4", "--quick", "--globals", "0,100"});
        assertEquals(1, o.repetitions());
        assertEquals(4, o.durationSeconds());
        assertEquals(2, o.warmupSeconds());
        assertEquals(List.of(0, 100), o.globals());
        assertEquals(List.of(8, 64), o.clientSweep());
    }

    @Test
    void theClientSweepIsSortedRunsItsOwnClientCountAndCanBeLeftOut() {
        CompareOptions o = CompareOptions.parse("--client-sweep", "512,8,64", "--globals", "50,10");
        assertEquals(List.of(8, 64, 512), o.clientSweep());
        assertEquals(10, o.sweepGlobal(), "the lowest % global asked for");
        LoadOptions point = LoadOptions.parse(o.loadArgs(SystemSpec.parse("duro-2x3"), 10, Path.of("/tmp/x"), 1, 512));
        assertEquals(512, point.clients());
        assertEquals(
                64,
                LoadOptions.parse(o.loadArgs(SystemSpec.parse("duro-2x3"), 10, Path.of("/tmp/x")))
                        .clients(),
                "the matrix keeps --clients");

        assertEquals(List.of(), CompareOptions.parse("--no-client-sweep").clientSweep());
        IllegalArgumentException both = assertThrows(
                IllegalArgumentException.class, () -> CompareOptions.parse("--no-client-sweep", "--client-sweep", "8"));
        assertTrue(both.getMessage().contains("--client-sweep and --no-client-sweep"), both.getMessage());
        IllegalArgumentException zero =
                assertThrows(IllegalArgumentException.class, () -> CompareOptions.parse("--client-sweep", "0,8"));
        assertTrue(zero.getMessage().contains("--client-sweep"), zero.getMessage());
    }

    @Test
    void systemsMapToTheLoadGeneratorsLayouts() {
        SystemSpec dur3 = SystemSpec.parse("duro-1x3");
        assertEquals(SystemKind.DUR, dur3.kind());
        LoadOptions run = LoadOptions.parse(
                CompareOptions.parse(new String[0]).loadArgs(SystemSpec.parse("dur-1x6"), 50, Path.of("/tmp/x")));
        assertEquals(SystemKind.DUR, run.system());
        assertEquals(1, run.partitions());
        assertEquals(6, run.replicas());
        assertEquals(50, run.globalPercent());
        assertEquals(SystemKind.ETCD, SystemSpec.parse("etcd-3").kind());
        assertEquals(3, SystemSpec.parse("etcd-3").replicas());
        assertThrows(IllegalArgumentException.class, () -> SystemSpec.parse("dur-2x3"));
        assertThrows(IllegalArgumentException.class, () -> SystemSpec.parse("mysql"));
        assertThrows(IllegalArgumentException.class, () -> CompareOptions.parse(new String[] {"--globals", "120"}));
    }

    @Test
    void everyOptionReachesItsField() {
        CompareOptions o = CompareOptions.parse(
                "--workload", "b",
                "--clients", "8",
                "--duration", "4",
                "--warmup", "1",
                "--repetitions", "2",
                "--systems", "duro-2x3, dur-1x6",
                "--globals", "0, 25,100",
                "--keys-per-partition", "500",
                "--out", "/tmp/compare");
        assertEquals("B", o.workload());
        assertEquals(8, o.clients());
        assertEquals(4, o.durationSeconds());
        assertEquals(1, o.warmupSeconds());
        assertEquals(2, o.repetitions());
        assertEquals(
                List.of("duro-2x3", "dur-1x6"),
                o.systems().stream().map(SystemSpec::name).toList());
        assertEquals(List.of(0, 25, 100), o.globals());
        assertEquals(500, o.keysPerPartition());
        assertEquals(Path.of("/tmp/compare"), o.outputDirectory());
    }

    @Test
    void aBadValueIsRefusedNamingTheOption() {
        for (String[] args : new String[][] {
            {"--repetitions", "many"}, {"--workload", "Z"}, {"--systems", "mysql"}, {"--globals", "ten"}
        }) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> CompareOptions.parse(args));
            assertTrue(refused.getMessage().contains("'" + args[0] + "'"), refused.getMessage());
        }
        IllegalArgumentException twice =
                assertThrows(IllegalArgumentException.class, () -> CompareOptions.parse("--systems", "etcd-3,etcd-3"));
        assertTrue(twice.getMessage().contains("--systems names a system twice"), twice.getMessage());
    }

    @Test
    void asynchronousClientsDriveDuroAndDurButNotEtcd() {
        assertFalse(CompareOptions.parse(new String[0]).asyncClients());
        CompareOptions o = CompareOptions.parse("--async-clients");
        assertTrue(o.asyncClients());
        assertTrue(LoadOptions.parse(o.loadArgs(SystemSpec.parse("duro-2x3"), 10, Path.of("/tmp/x")))
                .asyncClients());
        assertTrue(LoadOptions.parse(o.loadArgs(SystemSpec.parse("dur-1x6"), 0, Path.of("/tmp/x")))
                .asyncClients());
        assertFalse(LoadOptions.parse(o.loadArgs(SystemSpec.parse("etcd-3"), 0, Path.of("/tmp/x")))
                .asyncClients());
        IllegalArgumentException scans = assertThrows(
                IllegalArgumentException.class, () -> CompareOptions.parse("--async-clients", "--workload", "E"));
        assertTrue(scans.getMessage().contains("--async-clients"), scans.getMessage());
    }
}
