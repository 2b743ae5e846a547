package dev.duro.server;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.server.tls.CertsCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import javax.net.ssl.SSLContext;

/**
 * A real Duro cluster on loopback for tests: N nodes, P partitions of R replicas each, on free ports, data under
 * a test's temporary folder.
 *
 * <p>Two flavours. {@link Flavour#IN_JVM} starts every node with {@link DuroServer#start} in this JVM.
 * {@link Flavour#PROCESSES} runs every node as its own {@code java ... ServerMain --config FILE} process, so a
 * test can {@code kill -9} one ({@link #kill}) and start it again on the same data ({@link #start}).
 *
 * <p>Closing stops every node and process this cluster started, whatever state the test left them in; a JVM
 * shutdown hook does the same for processes if the test JVM exits first.
 */
final class TestCluster implements AutoCloseable {
    enum Flavour {
        IN_JVM,
        PROCESSES
    }

    /** What {@link #awaitConverged} found: per partition, the one state every replica reported. */
    record Converged(Map<Integer, ReplicaStatusReply> partitions) {
        long snapshotCounter(int partition) {
            return partitions.get(partition).snapshotCounter();
        }
    }

    private final Path root;
    private final Flavour flavour;
    private final String label;
    private final List<String> jvmOptions;
    private final List<String> nodeIds;
    private final Map<String, Properties> properties = new LinkedHashMap<>();
    private final Map<String, ServerConfig> configs = new LinkedHashMap<>();
    private final Map<String, DuroServer> servers = new ConcurrentHashMap<>();
    private final Map<String, Process> processes = new ConcurrentHashMap<>();
    private final List<DuroClient> clients = new CopyOnWriteArrayList<>();
    private final AtomicLong requestIds = new AtomicLong();
    private final @Nullable SSLContext rawTls;
    private final Thread stopProcessesOnExit = new Thread(this::destroyProcesses, "test-cluster-stop");

    /** Configures a cluster; {@link #start} starts it. */
    static final class Builder {
        private final Path root;
        private int nodes = 3;
        private int partitions = 2;
        private int replication = 3;
        private Flavour flavour = Flavour.IN_JVM;
        private String label = "cluster";
        /** Small and quick to start: the tests' clusters hold little data. */
        private List<String> jvmOptions =
                List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError");

        private final Map<String, String> settings = new LinkedHashMap<>();
        private boolean tls;

        private Builder(Path root) {
            this.root = root;
        }

        Builder nodes(int count) {
            this.nodes = count;
            return this;
        }

        Builder partitions(int count) {
            this.partitions = count;
            return this;
        }

        Builder replication(int replicas) {
            this.replication = replicas;
            return this;
        }

        Builder flavour(Flavour chosen) {
            this.flavour = chosen;
            return this;
        }

        /** Names the folder under {@code target/cluster-logs} that keeps the nodes' output after the test. */
        Builder label(String name) {
            this.label = name;
            return this;
        }

        /** The JVM options of each node's process, instead of the small defaults; only for {@link Flavour#PROCESSES}. */
        Builder jvmOptions(String... options) {
            this.jvmOptions = List.of(options);
            return this;
        }

        /**
         * TLS on every link: a CA, node certificates and a client certificate {@value #TLS_CLIENT} under the test's
         * folder ({@link #tlsDirectory}); the cluster's own clients and raw connections use them.
         */
        Builder tls() {
            this.tls = true;
            return this;
        }

        /** Any other ServerConfig setting, applied to every node. */
        Builder set(String key, String value) {
            settings.put(key, value);
            return this;
        }

        /** Starts every node and waits until the cluster is ready. */
        TestCluster start() throws IOException {
            TestCluster cluster = new TestCluster(this);
            try {
                cluster.start(cluster.nodeIds.toArray(new String[0]));
                cluster.awaitReady();
            } catch (IOException | RuntimeException | Error e) {
                cluster.close();
                throw e;
            }
            return cluster;
        }
    }

    static Builder builder(Path root) {
        return new Builder(root);
    }

    private TestCluster(Builder builder) throws IOException {
        this.root = builder.root;
        this.flavour = builder.flavour;
        this.label = builder.label;
        this.jvmOptions = builder.jvmOptions;
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= builder.nodes; i++) {
            ids.add("n" + i);
        }
        this.nodeIds = List.copyOf(ids);
        List<Integer> ports = freePorts(2 * builder.nodes);
        Properties cluster = new Properties();
        cluster.setProperty("cluster.name", "test-" + Long.toHexString(System.nanoTime()));
        cluster.setProperty("cluster.nodes", String.join(",", nodeIds));
        cluster.setProperty("cluster.partitions", Integer.toString(builder.partitions));
        cluster.setProperty("cluster.replication", Integer.toString(builder.replication));
        for (int i = 0; i < nodeIds.size(); i++) {
            cluster.setProperty("node." + nodeIds.get(i) + ".address", "127.0.0.1:" + ports.get(2 * i));
            cluster.setProperty("node." + nodeIds.get(i) + ".raft", "127.0.0.1:" + ports.get(2 * i + 1));
        }
        builder.settings.forEach(cluster::setProperty);
        if (builder.tls) {
            Instant now = Instant.now();
            CertsCommand.write(
                    tlsDirectory(),
                    nodeIds,
                    List.of(TLS_CLIENT),
                    now.minus(Duration.ofMinutes(5)),
                    now.plus(Duration.ofDays(1)),
                    new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
            rawTls = TestTls.socketContext(
                    tlsDirectory().resolve(CertsCommand.CA_FILE),
                    tlsDirectory().resolve(TLS_CLIENT + ".pem"),
                    tlsDirectory().resolve(TLS_CLIENT + "-key.pem"));
        } else {
            rawTls = null;
        }
        for (String node : nodeIds) {
            Properties own = new Properties();
            own.putAll(cluster);
            if (builder.tls) {
                own.setProperty(
                        "tls.ca-file",
                        tlsDirectory().resolve(CertsCommand.CA_FILE).toString());
                own.setProperty(
                        "tls.cert-file", tlsDirectory().resolve(node + ".pem").toString());
                own.setProperty(
                        "tls.key-file",
                        tlsDirectory().resolve(node + "-key.pem").toString());
            }
            own.setProperty("node.id", node);
            own.setProperty("data.dir", dataDirectory(node).toString());
            properties.put(node, own);
            configs.put(node, ServerConfig.of(own));
        }
        if (flavour == Flavour.PROCESSES) {
            Runtime.getRuntime().addShutdownHook(stopProcessesOnExit);
        }
    }

    /** The client certificate's name in a TLS test cluster. */
    static final String TLS_CLIENT = "test-client";

    /** Where a TLS test cluster keeps its certificates (CertsCommand's layout). */
    Path tlsDirectory() {
        return root.resolve("tls");
    }

    boolean tls() {
        return rawTls != null;
    }

    /** Ports free now: all held open together so they are distinct, then released for the nodes to bind. */
    static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
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

    // ---- shape ----

    List<String> nodeIds() {
        return nodeIds;
    }

    ServerConfig config(String node) {
        return configs.get(node);
    }

    int partitionCount() {
        return configs.get(nodeIds.get(0)).partitionCount();
    }

    /** The nodes holding a replica of {@code partition}. */
    List<String> replicasOf(int partition) {
        return configs.get(nodeIds.get(0)).placement().get(partition);
    }

    ServerConfig.HostPort clientAddress(String node) {
        return configs.get(node).self().address();
    }

    Path dataDirectory(String node) {
        return root.resolve(node);
    }

    /** Where Ratis keeps {@code partition}'s log and snapshots on {@code node}. */
    Path raftGroupDirectory(String node, int partition) {
        ServerConfig config = configs.get(node);
        return config.dataDirectory()
                .resolve("raft")
                .resolve(ConsensusConfiguration.topology(config)
                        .groupId(partition)
                        .getUuid()
                        .toString());
    }

    /** Every node's client address, as seeds for a client. */
    String seeds() {
        List<String> addresses = new ArrayList<>();
        for (String node : nodeIds) {
            addresses.add(clientAddress(node).toString());
        }
        return String.join(",", addresses);
    }

    /** A client of the whole cluster, closed with the cluster. */
    DuroClient newClient() {
        DuroClient.Builder builder = DuroClient.builder().seeds(seeds());
        if (tls()) {
            builder.tls(
                    tlsDirectory().resolve(CertsCommand.CA_FILE),
                    tlsDirectory().resolve(TLS_CLIENT + ".pem"),
                    tlsDirectory().resolve(TLS_CLIENT + "-key.pem"));
        }
        DuroClient client = builder.build();
        clients.add(client);
        return client;
    }

    /** The in-JVM server of {@code node}; only for {@link Flavour#IN_JVM}. */
    DuroServer server(String node) {
        DuroServer server = servers.get(node);
        if (server == null) {
            throw new IllegalStateException("node " + node + " is not running in this JVM");
        }
        return server;
    }

    /**
     * Fails if a node process the test did not kill or stop has exited (a crash, or a JVM out of heap, which exits):
     * convergence of the survivors alone would hide it.
     */
    void assertNoNodeExitedOnItsOwn() {
        processes.forEach((node, process) -> {
            if (!process.isAlive()) {
                String output = log(node);
                throw new AssertionError("node " + node + " exited on its own (exit code " + process.exitValue()
                        + "); the end of its output:\n" + output.substring(Math.max(0, output.length() - 2_000)));
            }
        });
    }

    boolean isRunning(String node) {
        Process process = processes.get(node);
        return servers.containsKey(node) || (process != null && process.isAlive());
    }

    /** The output of a node's processes so far (every start appends to it). */
    String log(String node) {
        Path log = logFile(node);
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path logFile(String node) {
        return root.resolve(node + ".log");
    }

    // ---- life cycle ----

    /** Starts (or restarts, on the same data) nodes, together, and returns once they all accept clients. */
    void start(String... nodes) throws IOException {
        for (String node : nodes) {
            if (isRunning(node)) {
                throw new IllegalStateException("node " + node + " is already running");
            }
        }
        if (flavour == Flavour.IN_JVM) {
            for (String node : nodes) {
                servers.put(node, DuroServer.start(configs.get(node)));
            }
            return;
        }
        Map<String, Integer> logStarts = new LinkedHashMap<>();
        for (String node : nodes) {
            logStarts.put(node, log(node).length());
            processes.put(node, spawn(node));
        }
        logStarts.forEach(this::awaitReadyLine);
    }

    private Process spawn(String node) throws IOException {
        Path configFile = root.resolve(node + ".properties");
        try (OutputStream out = Files.newOutputStream(configFile)) {
            properties.get(node).store(out, "test cluster node " + node);
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(jvmOptions);
        command.add("-Djava.util.concurrent.ForkJoinPool.common.parallelism=4");
        command.add(ServerMain.class.getName());
        command.add("--config");
        command.add(configFile.toString());
        // A test JVM killed outright (a build's timeout) leaves no node behind: their input ends with it.
        command.add("--exit-with-input");
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(node).toFile()))
                .start();
    }

    /** Waits for the line a server process prints once it accepts clients, in its output after {@code from}. */
    private void awaitReadyLine(String node, int from) {
        Process process = processes.get(node);
        Await.until("node " + node + " (pid " + process.pid() + ") prints ready", () -> {
            String output = log(node).substring(from);
            if (!process.isAlive()) {
                throw new AssertionError("node " + node + " exited with " + process.exitValue() + ":\n" + output);
            }
            return output.contains(" ready: ") ? Await.Poll.done(true) : Await.Poll.notYet("no ready line yet");
        });
    }

    /** The output of {@code node} after {@code from} up to the line saying it is ready (its start-up). */
    String startupOutput(String node, int from) {
        String output = log(node).substring(from);
        int ready = output.indexOf(" ready: ");
        return ready < 0 ? output : output.substring(0, ready);
    }

    /**
     * Stops a node abruptly: {@code kill -9} for a process (nothing is flushed or closed); for an in-JVM node,
     * which cannot be killed, an immediate close.
     */
    void kill(String node) throws IOException {
        Process process = processes.remove(node);
        if (process != null) {
            process.destroyForcibly(); // SIGKILL on Linux
            awaitExit(node, process);
            return;
        }
        DuroServer server = servers.remove(node);
        if (server != null) {
            server.close();
        }
    }

    /**
     * Closes a node process's standard input, as the death of the process that started it does (even by SIGKILL),
     * and waits for it to exit; returns its exit status.
     */
    int orphan(String node) throws IOException {
        Process process = processes.remove(node);
        if (process == null) {
            throw new IllegalStateException("node " + node + " is not running as a process");
        }
        process.getOutputStream().close();
        awaitExit(node, process);
        return process.exitValue();
    }

    /** Stops a node gracefully (SIGTERM for a process). */
    void stop(String node) throws IOException {
        Process process = processes.remove(node);
        if (process != null) {
            process.destroy();
            awaitExit(node, process);
            return;
        }
        DuroServer server = servers.remove(node);
        if (server != null) {
            server.close();
        }
    }

    private static void awaitExit(String node, Process process) {
        try {
            if (!process.waitFor(Await.DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("node " + node + " (pid " + process.pid() + ") did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted while stopping node " + node, e);
        }
    }

    /** Deletes everything a stopped node keeps on disk, as if its disk were replaced. */
    void wipe(String node) throws IOException {
        if (isRunning(node)) {
            throw new IllegalStateException("stop node " + node + " before wiping its data");
        }
        Path directory = dataDirectory(node);
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Override
    public void close() throws IOException {
        List<Throwable> failures = new ArrayList<>();
        for (DuroClient client : clients) {
            try {
                client.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        destroyProcesses();
        for (String node : List.copyOf(servers.keySet())) {
            try {
                servers.remove(node).close();
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
        }
        if (flavour == Flavour.PROCESSES) {
            keepLogs(failures);
            try {
                Runtime.getRuntime().removeShutdownHook(stopProcessesOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: it stops the processes itself
            }
        }
        if (!failures.isEmpty()) {
            IOException failure = new IOException("stopping the test cluster failed");
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    /** Copies the nodes' output out of the temporary folder, which the test deletes, for a look after a failure. */
    private void keepLogs(List<Throwable> failures) {
        Path kept = Path.of("target", "cluster-logs", label);
        try {
            Files.createDirectories(kept);
            for (String node : nodeIds) {
                if (Files.exists(logFile(node))) {
                    Files.copy(logFile(node), kept.resolve(node + ".log"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            failures.add(e);
        }
    }

    private void destroyProcesses() {
        for (String node : List.copyOf(processes.keySet())) {
            Process process = processes.remove(node);
            if (process != null) {
                process.destroyForcibly();
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    // ---- waiting for the cluster ----

    /** Waits until every partition has a leader (as the client sees it) and accepts a write. */
    ClusterView awaitReady() {
        DuroClient client = newClient();
        try {
            return Await.until("the cluster is ready", () -> {
                ClusterView view = client.refreshCluster();
                for (int p = 0; p < view.partitionCount(); p++) {
                    if (view.leader(p) == null) {
                        return Await.Poll.notYet("partition " + p + " has no leader: " + view);
                    }
                }
                for (int p = 0; p < view.partitionCount(); p++) {
                    client.put(probeKey(view, p), "ready");
                }
                return Await.Poll.done(view);
            });
        } finally {
            clients.remove(client);
            client.close();
        }
    }

    /**
     * Waits until every running replica of every partition reports the same snapshot counter and content digest,
     * with nothing pending. Call it once the load has stopped.
     */
    Converged awaitConverged() {
        return Await.until("every partition's replicas converge", () -> {
            assertNoNodeExitedOnItsOwn();
            Map<Integer, ReplicaStatusReply> agreed = new TreeMap<>();
            for (int p = 0; p < partitionCount(); p++) {
                Map<String, ReplicaStatusReply> reports = new TreeMap<>();
                for (String node : replicasOf(p)) {
                    if (isRunning(node)) {
                        reports.put(node, replicaStatus(node, p));
                    }
                }
                Set<List<Long>> states = new HashSet<>();
                for (ReplicaStatusReply report : reports.values()) {
                    states.add(List.of(report.snapshotCounter(), report.contentDigest(), (long) report.pendingCount()));
                }
                ReplicaStatusReply first = reports.values().iterator().next();
                if (states.size() != 1 || first.pendingCount() != 0) {
                    return Await.Poll.notYet("partition " + p + " replicas differ: " + describe(reports));
                }
                agreed.put(p, first);
            }
            return Await.Poll.done(new Converged(agreed));
        });
    }

    private static String describe(Map<String, ReplicaStatusReply> reports) {
        StringBuilder out = new StringBuilder();
        reports.forEach((node, report) -> out.append(node)
                .append("{SC=")
                .append(report.snapshotCounter())
                .append(", digest=")
                .append(Long.toHexString(report.contentDigest()))
                .append(", pending=")
                .append(report.pendingCount())
                .append("} "));
        return out.toString().trim();
    }

    /**
     * Waits until every replica on {@code node} has reached the {@code SC} its partition's leader has now: what an
     * operator waits for between the nodes of a rolling restart (`./duro status` shows the lag).
     */
    void awaitCaughtUp(String node) {
        for (int p = 0; p < partitionCount(); p++) {
            if (!replicasOf(p).contains(node)) {
                continue;
            }
            int partition = p;
            long target = replicaStatus(awaitLeader(p), p).snapshotCounter();
            Await.until(node + " catches up with partition " + p + " at SC " + target, () -> {
                long reached = replicaStatus(node, partition).snapshotCounter();
                return reached >= target ? Await.Poll.done(reached) : Await.Poll.notYet("SC " + reached);
            });
        }
    }

    /** Asks {@code node} for the state of its replica of {@code partition} over the wire. */
    ReplicaStatusReply replicaStatus(String node, int partition) {
        ServerReply reply = call(node, new ReplicaStatusRequest(requestIds.incrementAndGet(), partition));
        if (reply instanceof ReplicaStatusReply status) {
            return status;
        }
        throw new IllegalStateException("node " + node + " answered " + reply);
    }

    /**
     * The node every running node names as the leader of {@code partition}, once they agree (a node that lost
     * its leader may name it for a while).
     */
    String awaitLeader(int partition) {
        return Await.until("the running nodes agree on partition " + partition + "'s leader", () -> {
            Set<String> named = new HashSet<>();
            for (String node : nodeIds) {
                if (!isRunning(node)) {
                    continue;
                }
                ServerReply reply = call(node, new ClusterInfoRequest(requestIds.incrementAndGet()));
                if (!(reply instanceof ClusterInfoReply info)) {
                    return Await.Poll.notYet(node + " answered " + reply);
                }
                ClusterInfoReply.PartitionInfo group = info.partitions().get(partition);
                named.add(group.leaderKnown() ? nodeAt(group.replicas().get(group.leader())) : "none");
            }
            if (named.size() != 1
                    || named.contains("none")
                    || !isRunning(named.iterator().next())) {
                return Await.Poll.notYet("leaders named: " + named);
            }
            return Await.Poll.done(named.iterator().next());
        });
    }

    private String nodeAt(HostPort address) {
        for (String node : nodeIds) {
            ServerConfig.HostPort own = clientAddress(node);
            if (own.host().equals(address.host()) && own.port() == address.port()) {
                return node;
            }
        }
        throw new IllegalStateException("no node serves " + address);
    }

    private ServerReply call(String node, dev.duro.core.wire.ClientRequest request) {
        try (RawConnection connection = rawConnection(node)) {
            ServerReply reply = connection.call(request);
            if (reply instanceof ErrorReply error) {
                throw new IllegalStateException("node " + node + " refused " + request.type() + ": " + error);
            }
            return reply;
        } catch (IOException e) {
            throw new UncheckedIOException("node " + node + ": " + e.getMessage(), e);
        }
    }

    /** A raw connection to {@code node}'s endpoint, over TLS with the test client's certificate if TLS is on. */
    RawConnection rawConnection(String node) throws IOException {
        return new RawConnection(clientAddress(node), rawTls);
    }

    // ---- keys ----

    /**
     * A key of {@code partition} to write the readiness probe to: {@code ready-probe-N} where one falls there (the
     * hash partitioner), else one just after the start of the partition's slice (the range partitioner).
     */
    static String probeKey(ClusterView view, int partition) {
        for (int i = 0; i < 10_000; i++) {
            if (view.partitionOf(Bytes.utf8("ready-probe-" + i)) == partition) {
                return "ready-probe-" + i;
            }
        }
        Bytes start = view.partitionsOf(KeyRange.ALL).get(partition).range().from();
        String key = (start.size() == 0 ? "!" : start.toUtf8()) + "ready-probe";
        if (view.partitionOf(Bytes.utf8(key)) != partition) {
            throw new IllegalStateException("no probe key for partition " + partition + " of " + view);
        }
        return key;
    }

    /** {@code count} distinct keys starting with {@code prefix} that fall in {@code partition}. */
    static List<String> keysOf(ClusterView view, int partition, String prefix, int count) {
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; keys.size() < count; i++) {
            if (i > 1_000_000) {
                throw new IllegalStateException("no keys for partition " + partition);
            }
            String key = prefix + i;
            if (view.partitionOf(Bytes.utf8(key)) == partition) {
                keys.add(key);
            }
        }
        return keys;
    }
}
