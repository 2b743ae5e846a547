package dev.duro.bench.load;

import dev.duro.consensus.GroupCommitter;
import dev.duro.server.DuroServer;
import dev.duro.server.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * A cluster the load generator starts in its own process: one node per replica, every partition on every node
 * (so {@code --replicas} is also the node count), on free loopback ports, data in a temporary directory
 * removed afterwards. Real Ratis groups, fsync on, real Netty endpoints.
 */
final class LocalBenchCluster implements AutoCloseable {
    private final Path dataDirectory;
    private final List<DuroServer> servers = new ArrayList<>();
    private final String seeds;

    LocalBenchCluster(int partitions, int replicas) throws IOException {
        dataDirectory = Files.createTempDirectory("duro-bench-");
        List<Integer> ports = freePorts(2 * replicas);
        Properties common = new Properties();
        List<String> ids = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            String id = "b" + (i + 1);
            ids.add(id);
            addresses.add("127.0.0.1:" + ports.get(2 * i));
            common.setProperty("node." + id + ".address", "127.0.0.1:" + ports.get(2 * i));
            common.setProperty("node." + id + ".raft", "127.0.0.1:" + ports.get(2 * i + 1));
        }
        common.setProperty("cluster.name", "bench");
        common.setProperty("cluster.nodes", String.join(",", ids));
        common.setProperty("cluster.partitions", Integer.toString(partitions));
        common.setProperty("cluster.replication", Integer.toString(replicas));
        seeds = String.join(",", addresses);
        try {
            for (String id : ids) {
                Properties node = new Properties();
                node.putAll(common);
                node.setProperty("node.id", id);
                node.setProperty("data.dir", dataDirectory.resolve(id).toString());
                servers.add(DuroServer.start(ServerConfig.of(node)));
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    String seeds() {
        return seeds;
    }

    /** Commands and log entries proposed so far by every node's group committers. */
    long[] commandsAndEntries() {
        long commands = 0;
        long entries = 0;
        for (DuroServer server : servers) {
            for (GroupCommitter committer : server.consensus().committers()) {
                commands += committer.commandsSent();
                entries += committer.entriesSent();
            }
        }
        return new long[] {commands, entries};
    }

    /** {@code count} distinct loopback ports free at the time of the call. */
    static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    @Override
    public void close() throws IOException {
        // Stop the nodes together: stopped one by one, the survivors log a stream of failed appends to the first.
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        for (DuroServer server : servers) {
            stopping.add(CompletableFuture.runAsync(() -> {
                try {
                    server.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        CompletableFuture.allOf(stopping.toArray(new CompletableFuture<?>[0])).join();
        try (Stream<Path> files = Files.walk(dataDirectory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
