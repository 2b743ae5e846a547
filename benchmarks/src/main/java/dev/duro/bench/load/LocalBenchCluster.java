package dev.duro.bench.load;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.consensus.GroupCommitter;
import dev.duro.server.DuroServer;
import dev.duro.server.ServerConfig;
import dev.duro.server.ServerMain;
import dev.duro.server.tls.CertsCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.annotation.Nullable;

/**
 * A cluster the load generator starts: one node per replica, every partition on every node (so {@code --replicas}
 * is also the node count), on free loopback ports, data in a temporary directory removed afterwards. Real Ratis
 * groups, fsync on, real Netty endpoints.
 *
 * <p>By default each node is a JVM process of its own, started as {@code ./duro local} starts them, so that the
 * servers' CPU is measured apart from the load generator's ({@link #nodePids}); their output goes to
 * {@code <id>.log} in the log directory. In process ({@code --in-process}) the nodes share the load generator's
 * JVM, and only their log-entry counts are extra ({@link #commandsAndEntries}).
 */
final class LocalBenchCluster implements AutoCloseable {
    /** The node JVMs' options: as {@code ./duro local} runs them. */
    private static final List<String> NODE_JVM_OPTIONS = List.of(
            "-Xmx1g", "-XX:+ExitOnOutOfMemoryError", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4");
    /**
     * More options for the node JVMs, after {@link #NODE_JVM_OPTIONS} (so they win), separated by spaces: how
     * collector and heap settings are measured (docs/performance.md).
     */
    static final String EXTRA_NODE_JVM_OPTIONS = "duro.bench.node-java-options";

    /**
     * Options of nodes that {@code --profile} records: debug information at every instruction, not only at safepoints,
     * so that JFR names the inlined method a sample is in rather than the nearest one with debug information
     * (docs/performance.md, "Line-level profiles of the engine").
     */
    static final String PROFILED_NODE_JVM_OPTIONS = "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints";

    private static final Duration STOP_WAIT = Duration.ofSeconds(20);
    /** How many of the last lines of an exited node's log a start failure quotes. */
    private static final int FAILURE_LINES = 3;
    /** The common name of the load generator's client certificate, with {@code --tls}. */
    static final String TLS_CLIENT = "bench";

    private final Path dataDirectory;
    private final List<DuroServer> servers = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final String seeds;
    private final @Nullable Path tlsDirectory;
    /** Where each node process writes its output ({@code <id>.log}). */
    private final Path logDirectory;
    /** Options for the node JVMs after the others, separated by spaces ({@link #nodeJavaOptions}). */
    private final String extraJavaOptions;

    /** Stops the nodes when the load generator exits without closing this (SIGTERM, Ctrl-C): they outlived it. */
    private final ExitHook exitHook;

    @GuardedBy("this")
    private boolean closed;

    LocalBenchCluster(
            int partitions,
            int replicas,
            boolean inProcess,
            boolean tls,
            Map<String, String> settings,
            Path logDirectory,
            boolean profiled)
            throws IOException {
        this.logDirectory = logDirectory;
        this.extraJavaOptions = extraJavaOptions(profiled, System.getProperty(EXTRA_NODE_JVM_OPTIONS, ""));
        dataDirectory = RunDirectory.create("duro-bench-");
        exitHook = new ExitHook("bench-cluster-stop", this::closeAtExit);
        tlsDirectory = tls ? dataDirectory.resolve("tls") : null;
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
        // Every partition's leader on b1 while it is up, so runs do not differ by where elections put the leaders
        // (docs/performance.md, "Leaders placed"); --set cluster.preferred-leaders= leaves it to elections.
        common.setProperty("cluster.preferred-leaders", String.join(",", ids));
        settings.forEach(common::setProperty);
        seeds = String.join(",", addresses);
        try {
            if (tlsDirectory != null) {
                Instant now = Instant.now();
                CertsCommand.write(
                        tlsDirectory,
                        ids,
                        List.of(TLS_CLIENT),
                        now.minus(Duration.ofMinutes(5)),
                        now.plus(Duration.ofDays(1)),
                        new PrintStream(OutputStream.nullOutputStream()));
                common.setProperty(
                        "tls.ca-file",
                        tlsDirectory.resolve(CertsCommand.CA_FILE).toString());
            }
            for (String id : ids) {
                Properties node = new Properties();
                node.putAll(common);
                node.setProperty("node.id", id);
                if (tlsDirectory != null) {
                    node.setProperty(
                            "tls.cert-file", tlsDirectory.resolve(id + ".pem").toString());
                    node.setProperty(
                            "tls.key-file",
                            tlsDirectory.resolve(id + "-key.pem").toString());
                }
                node.setProperty("data.dir", dataDirectory.resolve(id).toString());
                ServerConfig config = ServerConfig.of(node); // a bad --set fails here, naming the setting
                if (inProcess) {
                    servers.add(DuroServer.start(config));
                } else {
                    processes.add(spawn(id, node, logDirectory));
                }
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * The node JVMs' options on Java {@code javaFeature}: {@link StoreJvmOptions} (G1's refinement in its pauses where
     * it has those flags, huge pages if {@code hugePages}), then {@link #NODE_JVM_OPTIONS}, then {@code extra} (options
     * separated by spaces), which therefore win.
     */
    static List<String> nodeJavaOptions(int javaFeature, boolean hugePages, String extra) {
        List<String> options = StoreJvmOptions.of(javaFeature, hugePages);
        options.addAll(NODE_JVM_OPTIONS);
        for (String option : extra.trim().split("\\s+")) {
            if (!option.isEmpty()) {
                options.add(option);
            }
        }
        return options;
    }

    /** The extra node options: {@link #PROFILED_NODE_JVM_OPTIONS} if {@code profiled}, then {@code given}, to win. */
    static String extraJavaOptions(boolean profiled, String given) {
        return profiled ? PROFILED_NODE_JVM_OPTIONS + " " + given : given;
    }

    private Process spawn(String id, Properties node, Path logDirectory) throws IOException {
        Path config = dataDirectory.resolve(id + ".properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            node.store(out, "bench node " + id);
        }
        Files.createDirectories(logDirectory);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(nodeJavaOptions(Runtime.version().feature(), HugePages.offered(), extraJavaOptions));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ServerMain.class.getName());
        command.add("--config");
        command.add(config.toString());
        // Their input is a pipe from this JVM: if it dies without its exit hook (SIGKILL), the nodes stop too.
        command.add("--exit-with-input");
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(logDirectory.resolve(id + ".log").toFile())
                .start();
    }

    String seeds() {
        return seeds;
    }

    /** Where the CA and certificates are, with {@code --tls}; null without it. */
    @Nullable
    Path tlsDirectory() {
        return tlsDirectory;
    }

    /** The node processes' ids; empty when the nodes run in this JVM ({@code --in-process}). */
    List<Long> nodePids() {
        return processes.stream().map(Process::pid).toList();
    }

    /** Node processes that have exited, as {@code id (exit code)}: a node that crashed under load. */
    List<String> exitedNodes() {
        List<String> exited = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (!processes.get(i).isAlive()) {
                exited.add("b" + (i + 1) + " (exit code " + processes.get(i).exitValue() + ")");
            }
        }
        return exited;
    }

    /**
     * Why the cluster could not start, if a node process has exited: each such node with its exit code and the last
     * lines of its log (a node that rejects its configuration says so there and exits); null if every node runs.
     */
    @Nullable
    String startFailure() {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            if (!process.isAlive()) {
                String id = "b" + (i + 1);
                Path log = logDirectory.resolve(id + ".log");
                failures.add(
                        id + " exited with code " + process.exitValue() + " (" + log + ": " + lastLines(log) + ")");
            }
        }
        return failures.isEmpty() ? null : String.join("; ", failures);
    }

    /** The last {@link #FAILURE_LINES} lines of {@code log} that are not blank, joined by {@code " | "}. */
    private static String lastLines(Path log) {
        try (Stream<String> lines = Files.lines(log)) {
            ArrayDeque<String> kept = new ArrayDeque<>(FAILURE_LINES);
            lines.filter(line -> !line.isBlank()).forEach(line -> {
                if (kept.size() == FAILURE_LINES) {
                    kept.removeFirst();
                }
                kept.addLast(line.strip());
            });
            return kept.isEmpty() ? "empty" : String.join(" | ", kept);
        } catch (IOException | UncheckedIOException unreadable) {
            return "unreadable: " + unreadable.getMessage();
        }
    }

    /** Commands and log entries proposed so far by every node's group committers; null unless in process. */
    @Nullable
    long[] commandsAndEntries() {
        if (servers.isEmpty()) {
            return null;
        }
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

    /** The shutdown hook: the JVM exits with the nodes still running. */
    private void closeAtExit() {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            System.err.println("bench cluster: stopping the nodes at exit: " + e);
        }
    }

    /** Stops the nodes and deletes their data; a second call does nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        exitHook.cancel();
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
        for (Process process : processes) {
            process.destroy(); // SIGTERM: the node shuts down as on Ctrl-C
        }
        CompletableFuture.allOf(stopping.toArray(new CompletableFuture<?>[0])).join();
        for (Process process : processes) {
            try {
                if (!process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        RunDirectory.delete(dataDirectory);
    }
}
