package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.duro.bench.load.ThreadCpu.Component;
import dev.duro.bench.load.ThreadCpu.ThreadTime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --thread-cpu}: thread dumps read, threads put in their components, CPU accounted between two dumps. */
class ThreadCpuTest {
    @TempDir
    Path out;

    /** The head lines of a Java 17 dump, as a node's looks: Java threads, then the JVM's own. */
    private static final String DUMP_17 = String.join(
            "\n",
            "2026-12-04 19:40:01",
            "Full thread dump OpenJDK 64-Bit Server VM (17.0.13+11-Debian-2 mixed mode, sharing):",
            "",
            "\"b1@group-D2A2BE66653C-StateMachineUpdater\" #45 daemon prio=5 os_prio=0 cpu=7337.00ms"
                    + " elapsed=121.96s tid=0x00007f1c2c0b8000 nid=0xb23 waiting on condition  [0x00007f1bf93fe000]",
            "   java.lang.Thread.State: WAITING (parking)",
            "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.13/Native Method)",
            "",
            "\"b1-io-3-2\" #52 prio=5 os_prio=0 cpu=8996.55ms elapsed=120.50s tid=0x00007f1c2c0c9000 nid=0xb30"
                    + " runnable  [0x00007f1bf8efe000]",
            "\"a \"quoted\" name\" #60 daemon prio=5 os_prio=0 cpu=1.50ms elapsed=1.00s tid=0x1 nid=0xb40 waiting",
            "\"GC Thread#0\" os_prio=0 cpu=1676.34ms elapsed=125.01s tid=0x00007f1c3c04a000 nid=0xa9c runnable  ",
            "\"C2 CompilerThread0\" #7 daemon prio=9 os_prio=0 cpu=13015.85ms elapsed=124.90s tid=0x2 nid=0xaa3"
                    + " waiting on condition  [0x0000000000000000]",
            "\"VM Periodic Task Thread\" os_prio=0 cpu=40.40ms elapsed=124.80s tid=0x3 nid=0xaab waiting on condition",
            "JNI global refs: 24, weak refs: 0");

    @Test
    void aJava17DumpReadsAsItsThreadsWithTheirNativeIdsAndCpu() {
        List<ThreadTime> threads = ThreadCpu.parse(DUMP_17);
        assertEquals(
                List.of(
                        new ThreadTime("b1@group-D2A2BE66653C-StateMachineUpdater", 0xb23, 7337.00),
                        new ThreadTime("b1-io-3-2", 0xb30, 8996.55),
                        new ThreadTime("a \"quoted\" name", 0xb40, 1.50),
                        new ThreadTime("GC Thread#0", 0xa9c, 1676.34),
                        new ThreadTime("C2 CompilerThread0", 0xaa3, 13015.85),
                        new ThreadTime("VM Periodic Task Thread", 0xaab, 40.40)),
                threads);
    }

    @Test
    void nativeIdsInDecimalAreReadTooAndLinesWithoutCpuSkipped() {
        assertEquals(
                List.of(new ThreadTime("main", 2851, 670.96)),
                ThreadCpu.parse("\"main\" #1 [2851] prio=5 os_prio=0 cpu=670.96ms elapsed=130.00s tid=0x7f nid=2851"
                        + " waiting on condition"));
        assertEquals(List.of(), ThreadCpu.parse("\"no cpu figure\" #3 prio=5 tid=0x1 nid=0x2 runnable"));
    }

    @Test
    void aNodesThreadsFallIntoTheirComponents() {
        Map<String, Component> expected = Map.ofEntries(
                Map.entry("b1@group-D2A2BE66653C-StateMachineUpdater", Component.APPLY),
                Map.entry("b1@group-000000000000-StateMachineUpdater", Component.APPLY),
                Map.entry("b1@group-D2A2BE66653C-SegmentedRaftLogWorker", Component.LOG_WORKER),
                Map.entry("b1@group-D2A2BE66653C->b3-DuroLogAppender-LogAppenderDaemon", Component.APPENDERS),
                Map.entry("b1@group-D2A2BE66653C-LeaderStateImpl", Component.RAFT_ROLES),
                Map.entry("b2@group-D2A2BE66653C-FollowerState", Component.RAFT_ROLES),
                Map.entry("b1-io-3-2", Component.EVENT_LOOPS),
                Map.entry("b1-accept-1-1", Component.EVENT_LOOPS),
                Map.entry("grpc-default-worker-ELG-3-2", Component.GRPC_LOOPS),
                Map.entry("grpc-default-boss-ELG-1-1", Component.GRPC_LOOPS),
                Map.entry("grpc-default-executor-3", Component.GRPC_EXECUTORS),
                Map.entry("b1-proposals", Component.PROPOSALS),
                Map.entry("b1-batch-linger", Component.PROPOSALS),
                Map.entry("b1-timers", Component.TIMERS),
                Map.entry("timer4", Component.TIMERS),
                Map.entry("CompletableFutureDelayScheduler", Component.TIMERS),
                Map.entry("b1-snapshot-writer-p0", Component.SNAPSHOTS),
                Map.entry("GC Thread#1", Component.COLLECTOR),
                Map.entry("G1 Conc#0", Component.COLLECTOR),
                Map.entry("C2 CompilerThread0", Component.COMPILER),
                Map.entry("C1 CompilerThread0", Component.COMPILER),
                Map.entry("main", Component.OTHER),
                Map.entry("VM Thread", Component.OTHER),
                Map.entry("b1-leader-placement", Component.OTHER));
        expected.forEach((name, component) -> assertEquals(component, Component.of(name), name));
    }

    @Test
    void eachThreadCountsWhatItUsedBetweenTheDumps() {
        List<ThreadTime> before = List.of(
                new ThreadTime("b1@group-A-StateMachineUpdater", 10, 1_000),
                new ThreadTime("b1-io-3-1", 11, 500),
                new ThreadTime("GC Thread#0", 12, 300),
                new ThreadTime("timer0", 13, 40)); // ends, and another thread takes its name
        List<ThreadTime> after = List.of(
                new ThreadTime("b1@group-A-StateMachineUpdater", 10, 1_250),
                new ThreadTime("b1-io-3-1", 11, 560),
                new ThreadTime("GC Thread#0", 12, 300),
                new ThreadTime("timer0", 14, 5), // started between the dumps: all of it counts
                new ThreadTime("b1@group-B-StateMachineUpdater", 15, 20));
        ThreadCpu.Account account = ThreadCpu.account(before, after);
        assertEquals(270.0, account.millis().get(Component.APPLY));
        assertEquals(60.0, account.millis().get(Component.EVENT_LOOPS));
        assertEquals(0.0, account.millis().get(Component.COLLECTOR));
        assertEquals(5.0, account.millis().get(Component.TIMERS));
        assertEquals(0.0, account.millis().get(Component.OTHER));
        assertEquals(Component.values().length, account.millis().size(), "every component, zero or not");
        assertEquals(1, account.threadsEnded(), "the first timer0");
        assertEquals(335.0, account.totalMillis());
        assertEquals(270.0 / 335.0, account.share(Component.APPLY), 1e-12);
    }

    @Test
    void aRealDumpOfThisJvmAccountsABusyThreadToItsComponent() throws Exception {
        assumeTrue(Jcmd.available(), "needs the JDK's jcmd");
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean.isCurrentThreadCpuTimeSupported(), "needs per-thread CPU time");
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong sink = new AtomicLong();
        Thread busy = new Thread(
                () -> {
                    try {
                        go.await();
                        long start = bean.getCurrentThreadCpuTime();
                        long sum = 0;
                        // 300 ms of this thread's CPU, or 20 s of the clock on a machine too busy to give it that.
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                        while (bean.getCurrentThreadCpuTime() - start < 300_000_000L && System.nanoTime() < deadline) {
                            for (int i = 0; i < 100_000; i++) {
                                sum += i ^ (sum >>> 3);
                            }
                        }
                        sink.set(sum);
                        spun.countDown();
                        release.await(); // alive until the second dump, which must still see it
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "test@group-ABCDEF-StateMachineUpdater");
        busy.setDaemon(true);
        busy.start();
        try {
            ThreadCpu.Window window =
                    ThreadCpu.open(List.of(ProcessHandle.current().pid()));
            go.countDown();
            assertTrue(spun.await(30, TimeUnit.SECONDS), "the busy thread spun");
            ThreadCpu.Account account = window.close();
            double applyMillis = account.millis().get(Component.APPLY);
            assertTrue(applyMillis >= 250, "the busy thread's 300 ms, as the dumps saw them: " + account);
            assertTrue(account.share(Component.APPLY) > 0 && account.share(Component.APPLY) <= 1, account.toString());
        } finally {
            go.countDown();
            release.countDown();
            busy.join(30_000);
        }
    }

    @Test
    void aReportWithAnAccountPrintsAndWritesTheServersCpuByComponent() throws IOException {
        Map<Component, Double> millis = new EnumMap<>(Component.class);
        for (Component component : Component.values()) {
            millis.put(component, 0.0);
        }
        millis.put(Component.APPLY, 600.0);
        millis.put(Component.LOG_WORKER, 300.0);
        millis.put(Component.COLLECTOR, 100.0);
        Histogram latency = new Histogram(3);
        latency.recordValue(1_000);
        Report report = new Report(
                "duro-1x3",
                Fixtures.options("--thread-cpu"),
                10,
                Map.of(TxKind.LOCAL, 10_000L),
                Map.of(),
                0,
                Map.of(TxKind.LOCAL, latency),
                new Report.Cpu(0.2, 1.0, false), // 0.1 ms of server CPU per transaction
                Double.NaN,
                Double.NaN,
                new ThreadCpu.Account(millis, 0));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("server CPU by thread (--thread-cpu; all nodes, per committed tx):"), text);
        assertTrue(text.matches("(?s).*\n  apply \\(StateMachineUpdater[^\n]* 60\\.0 us +60\\.0%\n.*"), text);
        assertTrue(text.matches("(?s).*\n  Raft log worker[^\n]* 30\\.0 us +30\\.0%\n.*"), text);
        report.write(out);
        ResultJson json = ResultJson.read(out.resolve("result.json"));
        assertEquals(new BigDecimal("60.0"), json.serverCpuMicrosByThread().get("apply"));
        assertEquals(new BigDecimal("10.0"), json.serverCpuMicrosByThread().get("collector"));
        assertEquals(new BigDecimal("0.0"), json.serverCpuMicrosByThread().get("other"));
    }

    @Test
    void theOptionIsRefusedWhereThereAreNoJvmThreadsToAccount() {
        IllegalArgumentException etcd = assertThrows(
                IllegalArgumentException.class, () -> LoadOptions.parse("--thread-cpu", "--system", "etcd"));
        assertTrue(etcd.getMessage().contains("--thread-cpu"), etcd.getMessage());
        IllegalArgumentException noPids = assertThrows(
                IllegalArgumentException.class, () -> LoadOptions.parse("--thread-cpu", "--cluster", "127.0.0.1:7101"));
        assertTrue(noPids.getMessage().contains("--server-pids"), noPids.getMessage());
        assertTrue(LoadOptions.parse("--thread-cpu", "--cluster", "127.0.0.1:7101", "--server-pids", "12")
                .threadCpu());
        assertTrue(!LoadOptions.parse().threadCpu(), "off by default");
    }
}
