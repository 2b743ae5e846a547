package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.core.wire.HostPort;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client outside a container network reaches the cluster through published ports only (README, "Docker"): the
 * nodes run on hosts of their own (network namespaces) at addresses this JVM cannot reach directly, their client
 * and HTTP ports are published on 127.0.0.1 by address translation as Docker publishes them, and each node
 * advertises its published address ({@code node.<id>.advertise}) while its peers reach it at its own.
 */
class PublishedPortsTest {
    private static final int NODES = 3;
    private static final int CLIENT_PORT = 7100;
    private static final int RAFT_PORT = 7200;
    private static final int HTTP_PORT = 7300;

    @TempDir
    Path root;

    @Test
    void aClientOnTheHostUsesTheCluster() throws Exception {
        String unavailable = PublishedPortsNetwork.unavailable();
        Assumptions.assumeTrue(unavailable == null, unavailable);
        List<Integer> published = TestCluster.freePorts(2 * NODES);
        List<Process> nodes = new ArrayList<>();
        try (PublishedPortsNetwork network = new PublishedPortsNetwork(NODES)) {
            Properties cluster = new Properties();
            cluster.setProperty("cluster.name", "published-ports");
            cluster.setProperty("cluster.nodes", "n1,n2,n3");
            cluster.setProperty("cluster.partitions", "2");
            cluster.setProperty("cluster.replication", "3");
            cluster.setProperty("server.http-port", Integer.toString(HTTP_PORT));
            List<String> seeds = new ArrayList<>();
            List<HostPort> advertised = new ArrayList<>();
            for (int i = 1; i <= NODES; i++) {
                int clientPort = published.get(2 * (i - 1));
                network.publish(clientPort, i, CLIENT_PORT);
                network.publish(published.get(2 * (i - 1) + 1), i, HTTP_PORT);
                cluster.setProperty("node.n" + i + ".address", network.address(i) + ":" + CLIENT_PORT);
                cluster.setProperty("node.n" + i + ".raft", network.address(i) + ":" + RAFT_PORT);
                cluster.setProperty("node.n" + i + ".advertise", "127.0.0.1:" + clientPort);
                seeds.add("127.0.0.1:" + clientPort);
                advertised.add(new HostPort("127.0.0.1", clientPort));
            }
            network.applyRules();
            for (int i = 1; i <= NODES; i++) {
                nodes.add(startNode(network, i, cluster));
            }
            for (int i = 1; i <= NODES; i++) {
                awaitReadyLine(i, nodes.get(i - 1));
            }

            assertThrows(
                    IOException.class,
                    () -> connect(network.address(1), CLIENT_PORT),
                    "this JVM cannot reach a node at its own address: only published ports are open");

            try (DuroClient client =
                    DuroClient.builder().seeds(seeds.toArray(new String[0])).build()) {
                ClusterView view = client.awaitReady(Duration.ofSeconds(60));
                for (int p = 0; p < view.partitionCount(); p++) {
                    assertEquals(
                            Set.copyOf(advertised),
                            Set.copyOf(view.replicas(p)),
                            "partition " + p + "'s replicas are advertised at their published addresses");
                }
                client.transact(tx -> {
                    for (int k = 0; k < 20; k++) {
                        tx.put("key-" + k, "value-" + k); // both partitions: a global transaction
                    }
                    return null;
                });
                List<String> read = client.readOnly(ro -> {
                    List<String> values = new ArrayList<>();
                    for (int k = 0; k < 20; k++) {
                        values.add(ro.get("key-" + k));
                    }
                    return values;
                });
                for (int k = 0; k < 20; k++) {
                    assertEquals("value-" + k, read.get(k));
                }
            }

            for (int i = 1; i <= NODES; i++) {
                int httpPort = published.get(2 * (i - 1) + 1);
                int node = i;
                Await.until("n" + i + " is ready at its published HTTP port", Duration.ofSeconds(30), () -> {
                    HttpResponse<String> ready = Http.get("http://127.0.0.1:" + httpPort + "/ready");
                    return ready.statusCode() == 200
                            ? Await.Poll.done(true)
                            : Await.Poll.notYet("n" + node + ": " + ready.statusCode() + " " + ready.body());
                });
            }
        } finally {
            for (Process node : nodes) {
                node.destroyForcibly().waitFor();
            }
        }
    }

    private Process startNode(PublishedPortsNetwork network, int i, Properties cluster) throws IOException {
        Properties own = new Properties();
        own.putAll(cluster);
        own.setProperty("node.id", "n" + i);
        own.setProperty("data.dir", root.resolve("n" + i).toString());
        Path config = root.resolve("n" + i + ".properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            own.store(out, "node n" + i + " behind published ports");
        }
        List<String> java = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                ServerMain.class.getName(),
                "--config",
                config.toString());
        return new ProcessBuilder(network.onHost(i, java))
                .redirectErrorStream(true)
                .redirectOutput(log(i).toFile())
                .start();
    }

    private void awaitReadyLine(int i, Process node) {
        Await.until("n" + i + " prints ready", Duration.ofSeconds(90), () -> {
            String output = output(i);
            if (!node.isAlive()) {
                throw new AssertionError("n" + i + " exited with " + node.exitValue() + ":\n" + output);
            }
            return output.contains(" ready: ") ? Await.Poll.done(true) : Await.Poll.notYet("no ready line yet");
        });
    }

    private String output(int i) {
        try {
            return Files.exists(log(i)) ? Files.readString(log(i), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path log(int i) {
        return root.resolve("n" + i + ".log");
    }

    private static void connect(String host, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1_000);
        }
    }
}
