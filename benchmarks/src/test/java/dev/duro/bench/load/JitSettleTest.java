package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The warm-up's extension while the measured JVMs compile: none for processes that do not compile, nor when off. */
class JitSettleTest {
    @Test
    void aProcessWithoutACompilerIsSettledAtOnce() throws IOException, InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "per-thread accounts are Linux's");
        Process busy = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done").start();
        try {
            JitSettle settle = JitSettle.watch(List.of(busy.pid()));
            Thread.sleep(300);
            JitSettle.Ticks shell = JitSettle.Ticks.of(List.of(busy.pid()));
            assertTrue(shell != null && shell.total() > 0 && shell.compiler() == 0, "the shell's ticks: " + shell);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Duration waited = settle.await(Duration.ofSeconds(60), new PrintStream(out, true, StandardCharsets.UTF_8));
            assertEquals(Duration.ZERO, waited, "a shell has no compiler threads: " + out);
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        } finally {
            busy.destroyForcibly();
            busy.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void eachThreadsTicksAreReadAndCompilersToldApart() {
        String fields = " S 1 77 77 0 -1 4194368 0 0 0 0 250 31 0 0 20 0 1 0 100 0 0";
        assertEquals(new JitSettle.Ticks(281, 281), JitSettle.Ticks.ofThread("77 (C2 CompilerThre)" + fields));
        assertEquals(new JitSettle.Ticks(0, 281), JitSettle.Ticks.ofThread("78 (a) (name) with)" + fields));
        assertEquals(new JitSettle.Ticks(0, 0), JitSettle.Ticks.ofThread(""), "a thread gone meanwhile");
    }

    @Test
    void thisJvmHasCompiled() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "per-thread accounts are Linux's");
        JitSettle.Ticks self =
                JitSettle.Ticks.of(List.of(ProcessHandle.current().pid()));
        assertTrue(self != null && self.compiler() > 0 && self.compiler() < self.total(), "this JVM: " + self);
    }

    @Test
    void offMeansNoWait() throws InterruptedException {
        JitSettle settle = JitSettle.watch(List.of(ProcessHandle.current().pid()));
        assertEquals(Duration.ZERO, settle.await(Duration.ZERO, new PrintStream(new ByteArrayOutputStream())));
    }

    @Test
    void aCalmWarmUpIsNotExtended() throws InterruptedException {
        Iterator<JitSettle.Ticks> reads = List.of(ticks(0, 0), ticks(40, 1_000)).iterator();
        JitSettle settle = new JitSettle(reads::next, Duration.ofMillis(10));
        assertEquals(Duration.ZERO, settle.await(Duration.ofSeconds(5), new PrintStream(new ByteArrayOutputStream())));
    }

    @Test
    void aCompilingWarmUpIsExtendedUntilTwoCalmWindowsInARow() throws InterruptedException {
        // 30% over the warm-up, then windows of 20%, 1% (calm), 12% (busy again), 2% and 3% (calm twice)
        Iterator<JitSettle.Ticks> reads = List.of(
                        ticks(0, 0),
                        ticks(300, 1_000),
                        ticks(320, 1_100),
                        ticks(321, 1_200),
                        ticks(333, 1_300),
                        ticks(335, 1_400),
                        ticks(338, 1_500))
                .iterator();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JitSettle settle = new JitSettle(reads::next, Duration.ofMillis(10));
        Duration waited = settle.await(Duration.ofSeconds(30), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertFalse(reads.hasNext(), "five windows were watched");
        assertTrue(waited.compareTo(Duration.ofMillis(50)) >= 0, "waited " + waited);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("until the JIT settled"), out.toString());
    }

    @Test
    void aJvmThatNeverSettlesIsWaitedForUntilTheLimitAndTheReportSaysSo() throws InterruptedException {
        long[] compiler = {0};
        long[] total = {0};
        JitSettle settle = new JitSettle(
                () -> {
                    compiler[0] += 30;
                    total[0] += 100;
                    return ticks(compiler[0], total[0]);
                },
                Duration.ofMillis(20));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Duration waited = settle.await(Duration.ofMillis(300), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(
                waited.compareTo(Duration.ofMillis(300)) >= 0 && waited.compareTo(Duration.ofSeconds(5)) < 0,
                "waited " + waited);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("30% of the CPU") && printed.contains("--jit-settle"), printed);
    }

    private static JitSettle.Ticks ticks(long compiler, long total) {
        return new JitSettle.Ticks(compiler, total);
    }
}
