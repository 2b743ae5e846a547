package dev.duro.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.client.UnavailableException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./duro local} as a user runs it: the script starts three node processes, a node killed with SIGKILL is
 * reported while the other two keep serving, {@code ./duro local restart} brings it back on its data, and stopping
 * the script stops every node, the restarted one included (no orphans holding the ports).
 *
 * <p>It lives in this module because this is the first one built after both jars the script runs.
 */
class LocalClusterScriptTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path data;

    @Test
    void aKilledNodeIsReportedTheOthersServeAndItComesBack() throws Exception {
        assertTrue(
                Files.isRegularFile(ROOT.resolve("store-server/target/duro-server.jar"))
                        && Files.isRegularFile(ROOT.resolve("store-client/cli/target/duro-cli.jar")),
                "the server and command line jars are built before this module's tests");
        int base = freeBasePort();
        Path output = data.resolve("duro-local.out");
        Process script = new ProcessBuilder(
                        ROOT.resolve("duro").toString(),
                        "local",
                        "--data-dir",
                        data.resolve("cluster").toString(),
                        "--base-port",
                        Integer.toString(base),
                        "--demo-seconds",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        List<Long> nodePids = new ArrayList<>();
        try {
            awaitOutput(output, "duro: serving on", script);
            for (int i = 1; i <= 3; i++) {
                nodePids.add(pidOf("n" + i));
            }
            String seeds = "127.0.0.1:" + (base + 1) + ",127.0.0.1:" + (base + 2) + ",127.0.0.1:" + (base + 3);
            try (DuroClient client = DuroClient.builder()
                    .seeds(seeds.split(","))
                    .requestTimeout(Duration.ofSeconds(10))
                    .build()) {
                client.awaitReady(WAIT);
                client.put("before", "1");

                ProcessHandle.of(nodePids.get(1)).orElseThrow().destroyForcibly();
                awaitOutput(output, "node n2 (pid " + nodePids.get(1) + ") exited", script);
                assertTrue(script.isAlive(), "./duro local outlives a node");
                // Two replicas of three still commit. The client's default retry policy resends a commit of unknown
                // outcome through the election that follows n2's death, where n2 led a partition.
                client.put("while-n2-is-down", "2");
                assertEquals("1", client.get("before"));

                Process restart = new ProcessBuilder(
                                ROOT.resolve("duro").toString(),
                                "local",
                                "restart",
                                "n2",
                                "--data-dir",
                                data.resolve("cluster").toString())
                        .redirectErrorStream(true)
                        .redirectOutput(data.resolve("restart.out").toFile())
                        .start();
                assertTrue(restart.waitFor(60, TimeUnit.SECONDS), "the restart command returns");
                assertEquals(0, restart.exitValue(), Files.readString(data.resolve("restart.out")));
                long restarted = pidOf("n2");
                assertNotEquals(nodePids.get(1), restarted);
                nodePids.add(restarted);
                awaitOutput(output, "node n2 is back (pid " + restarted + ")", script);
                client.put("after", "3");
                assertEquals("2", client.get("while-n2-is-down"));
            }
        } finally {
            script.destroy(); // SIGTERM: the script stops its nodes
            assertTrue(script.waitFor(60, TimeUnit.SECONDS), "./duro local stops on SIGTERM");
            for (long pid : nodePids) {
                Optional<ProcessHandle> node = ProcessHandle.of(pid);
                node.ifPresent(ProcessHandle::destroyForcibly); // never leave a node behind, even on failure
                assertFalse(node.isPresent() && node.get().isAlive(), "node pid " + pid + " stopped with the script");
            }
        }
    }

    /**
     * {@code ./duro local --tls}: the nodes start with certificates it writes under the data folder, serve clients
     * that trust its CA, refuse plaintext ones with a clear error, and the script prints the client options to use.
     */
    @Test
    void withTlsTheLocalClusterServesTlsClientsAndRefusesPlaintextOnes() throws Exception {
        int base = freeBasePort();
        Path output = data.resolve("duro-local-tls.out");
        Path cluster = data.resolve("cluster");
        Process script = new ProcessBuilder(
                        ROOT.resolve("duro").toString(),
                        "local",
                        "--tls",
                        "--data-dir",
                        cluster.toString(),
                        "--base-port",
                        Integer.toString(base),
                        "--demo-seconds",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        List<Long> nodePids = new ArrayList<>();
        try {
            awaitOutput(output, "duro: serving on", script);
            for (int i = 1; i <= 3; i++) {
                nodePids.add(pidOf("n" + i));
            }
            Path tls = cluster.resolve("tls");
            assertTrue(
                    Files.readString(output).contains("--tls-ca " + tls.resolve("ca.pem")),
                    "the script prints the client options");
            assertTrue(Files.readString(cluster.resolve("n1.properties"))
                    .contains("tls.cert-file=" + tls.resolve("n1.pem")));
            String[] seeds = {"127.0.0.1:" + (base + 1), "127.0.0.1:" + (base + 2), "127.0.0.1:" + (base + 3)};
            try (DuroClient client = DuroClient.builder()
                    .seeds(seeds)
                    .requestTimeout(Duration.ofSeconds(10))
                    .tls(tls.resolve("ca.pem"), tls.resolve("local-admin.pem"), tls.resolve("local-admin-key.pem"))
                    .build()) {
                client.awaitReady(WAIT);
                client.put("over-tls", "yes");
                assertEquals("yes", client.get("over-tls"));
            }
            try (DuroClient plaintext = DuroClient.builder()
                    .seeds(seeds)
                    .requestTimeout(Duration.ofSeconds(10))
                    .build()) {
                UnavailableException refused = assertThrows(UnavailableException.class, plaintext::refreshCluster);
                assertTrue(refused.getMessage().contains("may require TLS"), refused.getMessage());
            }
        } finally {
            script.destroy();
            assertTrue(script.waitFor(60, TimeUnit.SECONDS), "./duro local stops on SIGTERM");
            for (long pid : nodePids) {
                Optional<ProcessHandle> node = ProcessHandle.of(pid);
                node.ifPresent(ProcessHandle::destroyForcibly);
                assertFalse(node.isPresent() && node.get().isAlive(), "node pid " + pid + " stopped with the script");
            }
        }
    }

    private long pidOf(String node) throws IOException {
        return Long.parseLong(
                Files.readString(data.resolve("cluster").resolve(node + ".pid")).trim());
    }

    private static void awaitOutput(Path output, String expected, Process script)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Files.readString(output).contains(expected)) {
            if (!script.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError(
                        "./duro local never printed '" + expected + "'; it printed:\n" + Files.readString(output));
            }
            Thread.sleep(100);
        }
    }

    /** A base port whose client ports (base + 1..3) and Raft ports (base + 101..103) are free now. */
    private static int freeBasePort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
            if (free(base + 1)
                    && free(base + 2)
                    && free(base + 3)
                    && free(base + 101)
                    && free(base + 102)
                    && free(base + 103)) {
                return base;
            }
        }
        throw new IOException("no free port range found");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
