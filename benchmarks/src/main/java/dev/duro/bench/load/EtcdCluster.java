package dev.duro.bench.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An etcd cluster the load generator starts for the baseline: {@code members} child processes of the system's
 * {@code etcd} binary (Debian's {@code etcd-server} package) on free loopback ports, data in a temporary
 * directory removed afterwards. Stock settings (WAL fsync on, as Duro's log), except the logger, which goes to
 * a file per member. Each member is stopped by its pid on {@link #close()}, and by a shutdown hook if the JVM
 * exits first (Ctrl-C, a failure).
 */
public final class EtcdCluster implements AutoCloseable {
    /** Where Debian's {@code etcd-server} package puts the binary. */
    public static final Path ETCD_BINARY = Path.of("/usr/bin/etcd");

    private static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dataDirectory;
    private final List<Process> members = new ArrayList<>();
    private final List<String> clientUrls = new ArrayList<>();
    private final ExitHook exitHook;

    @GuardedBy("this")
    private boolean closed;

    private EtcdCluster() throws IOException {
        dataDirectory = RunDirectory.create("duro-bench-etcd-");
        exitHook = new ExitHook("etcd-cluster-stop", this::stopAtExit);
    }

    private void launch(int memberCount, PrintStream console) throws IOException {
        List<Integer> ports = LocalBenchCluster.freePorts(2 * memberCount);
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            clientUrls.add("http://127.0.0.1:" + ports.get(2 * i));
            peers.add("e" + (i + 1) + "=http://127.0.0.1:" + ports.get(2 * i + 1));
        }
        console.printf(
                Locale.ROOT,
                "starting etcd %d-member cluster on %s (data in %s) ...%n",
                memberCount,
                String.join(",", clientUrls),
                dataDirectory);
        for (int i = 0; i < memberCount; i++) {
            members.add(startMember(i, ports.get(2 * i), ports.get(2 * i + 1), String.join(",", peers)));
        }
    }

    /** Starts {@code memberCount} members and waits until every one reports healthy. */
    public static EtcdCluster start(int memberCount, PrintStream console) throws IOException {
        requireBinary();
        EtcdCluster cluster = new EtcdCluster();
        try {
            cluster.launch(memberCount, console);
            cluster.awaitHealthy();
            console.printf(Locale.ROOT, "etcd cluster healthy (member pids %s)%n", cluster.pids());
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Throws a message that says what to install when the etcd binary is missing. */
    public static void requireBinary() {
        if (!isInstalled()) {
            throw new IllegalStateException("the etcd baseline needs " + ETCD_BINARY
                    + ", which is missing: install Debian's etcd-server package (apt-get install -y etcd-server)");
        }
    }

    public static boolean isInstalled() {
        return Files.isExecutable(ETCD_BINARY);
    }

    private Process startMember(int index, int clientPort, int peerPort, String initialCluster) throws IOException {
        String name = "e" + (index + 1);
        String client = "http://127.0.0.1:" + clientPort;
        String peer = "http://127.0.0.1:" + peerPort;
        ProcessBuilder builder = new ProcessBuilder(
                        ETCD_BINARY.toString(),
                        "--name",
                        name,
                        "--data-dir",
                        dataDirectory.resolve(name).toString(),
                        "--listen-client-urls",
                        client,
                        "--advertise-client-urls",
                        client,
                        "--listen-peer-urls",
                        peer,
                        "--initial-advertise-peer-urls",
                        peer,
                        "--initial-cluster",
                        initialCluster,
                        "--initial-cluster-token",
                        "duro-bench",
                        "--initial-cluster-state",
                        "new",
                        "--logger",
                        "zap")
                .redirectErrorStream(true)
                .redirectOutput(dataDirectory.resolve(name + ".log").toFile());
        return builder.start();
    }

    private void awaitHealthy() throws IOException {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + HEALTHY_TIMEOUT.toNanos();
        for (int i = 0; i < members.size(); i++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(clientUrls.get(i) + "/health"))
                    .timeout(Duration.ofSeconds(2))
                    .build();
            while (!healthy(http, request)) {
                if (!members.get(i).isAlive()) {
                    throw new IOException("etcd member e" + (i + 1) + " exited with status "
                            + members.get(i).exitValue() + "; its log ends:\n" + logTail(i));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("etcd member e" + (i + 1) + " not healthy after " + HEALTHY_TIMEOUT
                            + "; its log ends:\n" + logTail(i));
                }
                sleepQuietly(Duration.ofMillis(200));
            }
        }
    }

    private static boolean healthy(HttpClient http, HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && reportsHealthy(response.body());
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for etcd", e);
        }
    }

    /** Whether a member's {@code /health} answer, e.g. {@code {"health":"true","reason":""}}, says it is healthy. */
    static boolean reportsHealthy(String body) throws JsonProcessingException {
        return JSON.readTree(body).path("health").asText().equals("true");
    }

    private String logTail(int index) {
        try {
            List<String> lines =
                    Files.readAllLines(dataDirectory.resolve("e" + (index + 1) + ".log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The members' client URLs, e.g. {@code http://127.0.0.1:40123}. */
    public List<String> clientUrls() {
        return List.copyOf(clientUrls);
    }

    public List<Long> pids() {
        return members.stream().map(Process::pid).toList();
    }

    /** SIGTERM to each member by pid, then SIGKILL to any still alive after {@link #STOP_TIMEOUT}. */
    private void stopMembers() {
        for (Process member : members) {
            ProcessHandle.of(member.pid()).ifPresent(ProcessHandle::destroy);
        }
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        for (Process member : members) {
            while (member.isAlive() && System.nanoTime() < deadline) {
                sleepQuietly(Duration.ofMillis(50));
            }
            if (member.isAlive()) {
                ProcessHandle.of(member.pid()).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** The shutdown hook: the JVM is exiting (Ctrl-C, a failure) with the cluster still running. */
    private synchronized void stopAtExit() {
        if (closed) {
            return;
        }
        stopMembers();
        try {
            removeData();
        } catch (IOException e) {
            System.err.println("etcd cluster: could not remove " + dataDirectory + ": " + e.getMessage());
        }
    }

    private void removeData() throws IOException {
        RunDirectory.delete(dataDirectory);
    }

    private static void sleepQuietly(Duration length) {
        try {
            Thread.sleep(length.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopMembers();
        exitHook.cancel();
        for (Process member : members) {
            try {
                member.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try {
            removeData();
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove " + dataDirectory, e);
        }
    }
}
