package dev.duro.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.server.DuroServer;
import dev.duro.server.ServerConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./duro scan} and the shell's {@code scan} / {@code scanprefix} against a real node on loopback (one node,
 * two range partitions split at {@code m}), as a user meets them: one {@code key value} line per key, in order.
 */
class ScanCommandTest {
    @TempDir
    static Path data;

    private static DuroServer server;
    private static String address;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void startNode() throws IOException {
        int clientPort;
        int raftPort;
        try (ServerSocket a = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ServerSocket b = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            clientPort = a.getLocalPort();
            raftPort = b.getLocalPort();
        }
        address = "127.0.0.1:" + clientPort;
        Properties properties = new Properties();
        properties.setProperty("cluster.name", "scan-cli");
        properties.setProperty("cluster.nodes", "n1");
        properties.setProperty("cluster.partitions", "2");
        properties.setProperty("cluster.replication", "1");
        properties.setProperty("cluster.partitioner", "range:m");
        properties.setProperty("node.n1.address", address);
        properties.setProperty("node.n1.raft", "127.0.0.1:" + raftPort);
        properties.setProperty("node.id", "n1");
        properties.setProperty("data.dir", data.resolve("n1").toString());
        server = DuroServer.start(ServerConfig.of(properties));
        try (DuroClient client = DuroClient.builder().seeds(address).build()) {
            client.awaitReady(Duration.ofSeconds(60));
            client.transact(tx -> {
                for (String key : new String[] {"apple", "banana", "cherry", "melon", "peach", "plum"}) {
                    tx.put(key, key.length() + "");
                }
                return null;
            });
        }
    }

    @AfterAll
    static void stopNode() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private int run(String input, String... args) {
        return DuroCli.commandLine(
                        new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .execute(args);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    @Test
    void scanPrintsEveryKeyOfTheRangeInOrderAcrossBothPartitions() {
        assertEquals(0, run("", "scan", "--cluster", address, "b", "pz"));
        assertEquals("banana 6\ncherry 6\nmelon 5\npeach 5\nplum 4\n", stdout());
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void scanDescendingWithALimitPrintsTheLastKeysAndSaysItStopped() {
        assertEquals(0, run("", "scan", "--cluster", address, "a", "", "--desc", "--limit", "3"));
        assertEquals("plum 4\npeach 5\nmelon 5\n", stdout());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("stopped at --limit 3"), err.toString());
    }

    @Test
    void scanOfAPrefixPrintsItsKeys() {
        assertEquals(0, run("", "scan", "--cluster", address, "--prefix", "p"));
        assertEquals("peach 5\nplum 4\n", stdout());
    }

    @Test
    void theShellScansARangeAndAPrefix() {
        assertEquals(0, run("scan a c 1\nscanprefix p\nscan c a\nexit\n", "shell", "--cluster", address));
        String printed = stdout();
        assertTrue(printed.contains("apple 5\n(1 key, the limit)\n"), printed);
        assertTrue(printed.contains("peach 5\nplum 4\n(2 keys)\n"), printed);
        assertTrue(printed.contains("error: TO must sort after FROM"), printed);
    }
}
