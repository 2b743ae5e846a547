package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node process that exits while the bench starts its cluster fails the start with the node's own reason, taken from
 * its log, rather than with a wait that runs out (or, as before, with the error of deleting the data twice).
 */
class LocalBenchClusterStartTest {
    @Test
    void aNodeThatCannotStartIsNamedWithTheLastLinesOfItsLog(@TempDir Path logs) {
        String before = System.getProperty(LocalBenchCluster.EXTRA_NODE_JVM_OPTIONS);
        System.setProperty(LocalBenchCluster.EXTRA_NODE_JVM_OPTIONS, "-XX:+DuroNoSuchOption");
        try {
            IllegalStateException failure = assertThrows(
                    IllegalStateException.class, () -> DuroTarget.start(1, 1, false, false, Map.of(), logs, false));
            String message = failure.getMessage();
            assertTrue(message.startsWith("the cluster did not start: b1 exited with code 1"), message);
            assertTrue(message.contains("DuroNoSuchOption"), "the JVM's own complaint, from b1.log: " + message);
            assertTrue(message.contains(logs.resolve("b1.log").toString()), message);
        } finally {
            if (before == null) {
                System.clearProperty(LocalBenchCluster.EXTRA_NODE_JVM_OPTIONS);
            } else {
                System.setProperty(LocalBenchCluster.EXTRA_NODE_JVM_OPTIONS, before);
            }
        }
    }
}
