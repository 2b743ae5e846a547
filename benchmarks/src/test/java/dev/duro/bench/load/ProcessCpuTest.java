package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void addsUserAndSystemTicksCountingFieldsAfterTheCommandName() {
        String stat = "4242 (etcd (odd) name) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 567 0 0 20 0 12 0 99";
        assertEquals(1234 + 567, ProcessCpu.ticks(stat));
    }

    @Test
    void thisProcessHasUsedSomeCpu() {
        long pid = ProcessHandle.current().pid();
        assertTrue(ProcessCpu.nanos(pid) > 0
                || !java.nio.file.Files.exists(java.nio.file.Path.of("/proc", Long.toString(pid))));
    }
}
