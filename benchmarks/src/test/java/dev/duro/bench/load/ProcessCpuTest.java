package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * CPU time of other processes, as the load generator measures its server processes. The children are shell
 * processes with a bounded life: each ends by itself within seconds, and is stopped at the end of its test anyway.
 */
class ProcessCpuTest {
    private static final Duration WATCHED = Duration.ofMillis(1_500);
    /** A busy loop of shell builtins only (no child processes, whose CPU would not count), ending by itself. */
    private static final String BURN_FOR_TEN_SECONDS = "while (( SECONDS < 10 )); do :; done";

    private static Process start(String... command) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    @Test
    void aChildThatBurnsCpuHasUsedSomeAndMoreThanAnIdleOne() throws Exception {
        Path bash = Path.of("/bin/bash");
        assumeTrue(Files.isExecutable(bash), "needs bash for a busy loop of builtins");
        Process busy = start(bash.toString(), "-c", BURN_FOR_TEN_SECONDS);
        Process idle = start("sleep", "10");
        try {
            Thread.sleep(WATCHED.toMillis());
            assertTrue(busy.isAlive() && idle.isAlive(), "both children still run while measured");
            long busyNanos = ProcessCpu.nanos(busy.pid());
            long idleNanos = ProcessCpu.nanos(idle.pid());
            assertTrue(busyNanos > 0, "busy child used " + busyNanos + " ns");
            assertTrue(idleNanos < Duration.ofMillis(50).toNanos(), "idle child used " + idleNanos + " ns");
            assertTrue(busyNanos > idleNanos, busyNanos + " ns busy, " + idleNanos + " ns idle");
            // Read again a moment later, the sum over both is at least what each had used.
            assertTrue(ProcessCpu.nanos(List.of(busy.pid(), idle.pid())) >= busyNanos + idleNanos);
        } finally {
            stop(busy);
            stop(idle);
        }
    }

    @Test
    void aProcessThatHasExitedCountsAsNothing() throws Exception {
        Process done = start("true");
        assertTrue(done.waitFor(10, TimeUnit.SECONDS), "true exits at once");
        assertEquals(0, ProcessCpu.nanos(done.pid()));
    }

    @Test
    void thisJvmHasUsedSomeCpu() {
        assertTrue(ProcessCpu.thisProcessNanos() > 0);
        assertTrue(ProcessCpu.nanos(ProcessHandle.current().pid()) > 0);
    }
}
