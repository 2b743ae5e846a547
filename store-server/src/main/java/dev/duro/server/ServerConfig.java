package dev.duro.server;

import dev.duro.core.Limits;
import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.engine.EngineSettings;
import dev.duro.server.tls.TlsMaterial;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * A node's whole configuration, read from a properties file (and {@code --set key=value} flags), validated as
 * a whole: every problem is reported at once, each naming its key.
 *
 * <p>Every node of a cluster shares the cluster part (name, nodes, partitions, placement, partitioner, limits,
 * certification); {@code node.id} and {@code data.dir} are the node's own. The README's configuration table lists every key.
 */
public final class ServerConfig {
    /**
     * One member of the cluster.
     *
     * @param address where the node serves clients and its peers reach it ({@code node.<id>.address})
     * @param raft its Raft (gRPC) endpoint ({@code node.<id>.raft})
     * @param advertised the address clients are told to use for it ({@code node.<id>.advertise}, by default
     *     {@code address}): differs where clients reach the node through address translation, as through a
     *     container's published port
     */
    public record Node(String id, HostPort address, HostPort raft, HostPort advertised) {}

    /** host:port. */
    public record HostPort(String host, int port) {
        public static HostPort parse(String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new IllegalArgumentException("expected host:port, got '" + text + "'");
            }
            int port = Integer.parseInt(text.substring(colon + 1).trim());
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range in '" + text + "'");
            }
            return new HostPort(text.substring(0, colon).trim(), port);
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    private final String clusterName;
    private final String nodeId;
    private final Path dataDirectory;
    private final Map<String, Node> nodes;
    private final List<List<String>> placement;
    private final String partitioner;
    private final List<String> preferredLeaders;
    private final Limits limits;
    private final EngineSettings engine;
    private final boolean fsync;
    private final long snapshotEveryEntries;
    private final int batchCommandsMax;
    private final int proposalsInFlightMax;
    private final int batchLingerMicros;
    private final Duration readWaitMax;
    private final Duration commitTimeout;
    private final long coordinatorLagMax;
    private final int httpPort;
    private final int inflightCommitsMax;
    private final Duration tickInterval;
    private final Duration frontierInterval;
    private final int frameBytesMax;
    private final int scanKeysMax;
    private final String logFormat;
    private final Duration authRefresh;
    private final int authPasswordIterations;
    private final @Nullable TlsMaterial tls;

    /** The values of {@code log.format}. */
    public static final List<String> LOG_FORMATS = List.of("text", "json");

    @Nullable
    private final String bindHost;

    private final Set<String> keysRead;

    private ServerConfig(ConfigParser in) {
        clusterName = in.string(Settings.CLUSTER_NAME);
        String id = in.optional(Settings.NODE_ID);
        nodeId = id == null ? "" : id; // "" only in a configuration refused below for want of node.id
        String dataDir = in.string(Settings.DATA_DIR.key(), "data/" + (id == null ? "node" : id));
        if (dataDir.indexOf(',') >= 0) {
            // Ratis reads its storage setting as a comma-separated list, so such a path would not be found.
            in.problem("data.dir", "must not contain a comma (got '" + dataDir + "')");
        }
        dataDirectory = Path.of(dataDir.replace(',', '_'));
        nodes = in.nodes();
        placement = in.placement(nodes);
        partitioner = in.string(Settings.CLUSTER_PARTITIONER);
        preferredLeaders = preferredLeaders(in, nodes.keySet());
        limits = new Limits(
                in.integer(Settings.KEY_BYTES_MAX),
                in.integer(Settings.VALUE_BYTES_MAX),
                in.integer(Settings.TRANSACTION_KEYS_MAX));
        CertifierSettings certification = CertifierSettings.DEFAULT
                .withWindowTransactions(in.integer(Settings.WINDOW_TRANSACTIONS))
                .withBloomReadSetKeysMin(in.integer(Settings.BLOOM_READ_SET_KEYS_MIN));
        // The retention windows. Any values are safe (docs/window-safety.md): smaller ones only turn more late
        // retries into OUTCOME_UNKNOWN, more old snapshots into SNAPSHOT_TOO_OLD, more votes into resends.
        engine = new EngineSettings(
                certification,
                in.integer(Settings.SNAPSHOTS_RETAINED),
                in.integer(Settings.OUTCOMES_RETAINED),
                in.integer(Settings.BUFFERED_VOTES_MAX),
                in.integer(Settings.VOTE_RESEND_AFTER_MILLIS),
                // Longer than a Raft election (1-2 s): a leader change alone must not abort global transactions
                // whose part is still in flight at that partition.
                in.integer(Settings.ABORT_REQUEST_AFTER_MILLIS));
        fsync = in.bool(Settings.FSYNC);
        snapshotEveryEntries = in.integer(Settings.SNAPSHOT_EVERY_ENTRIES);
        batchCommandsMax = in.integer(Settings.BATCH_COMMANDS_MAX);
        proposalsInFlightMax = in.integer(Settings.PROPOSALS_IN_FLIGHT_MAX);
        batchLingerMicros = in.integer(Settings.BATCH_LINGER_MICROS);
        readWaitMax = Duration.ofMillis(in.integer(Settings.READ_WAIT_MILLIS_MAX));
        commitTimeout = Duration.ofMillis(in.integer(Settings.COMMIT_TIMEOUT_MILLIS));
        coordinatorLagMax = in.integer(Settings.COORDINATOR_LAG_MAX);
        httpPort = in.integer(Settings.HTTP_PORT);
        inflightCommitsMax = in.integer(Settings.INFLIGHT_COMMITS_MAX);
        tickInterval = Duration.ofMillis(in.integer(Settings.TICK_MILLIS));
        frontierInterval = Duration.ofMillis(in.integer(Settings.FRONTIER_MILLIS));
        frameBytesMax = in.integer(Settings.FRAME_BYTES_MAX);
        scanKeysMax = in.integer(Settings.SCAN_KEYS_MAX);
        bindHost = in.optional(Settings.BIND_HOST);
        logFormat = in.string(Settings.LOG_FORMAT);
        authRefresh = Duration.ofMillis(in.integer(Settings.AUTH_REFRESH_MILLIS));
        authPasswordIterations = in.integer(Settings.AUTH_PASSWORD_ITERATIONS);
        tls = ConfiguredTls.read(in, id);
        if (!LOG_FORMATS.contains(logFormat)) {
            in.problem("log.format", "must be one of " + LOG_FORMATS + ", was '" + logFormat + "'");
        }
        if (frameBytesMax < limits.valueBytesMax() + limits.keyBytesMax() + 4096) {
            in.problem("server.frame-bytes-max", "must hold one maximal key and value (limits.*)");
        }
        if (!partitioner.equals("hash") && !partitioner.startsWith("range:")) {
            in.problem("cluster.partitioner", "must be 'hash' or 'range:split1,split2,...', was '" + partitioner + "'");
        } else if (partitioner.startsWith("range:")
                && partitioner.substring(6).split(",").length != placement.size() - 1) {
            in.problem(
                    "cluster.partitioner",
                    "needs cluster.partitions - 1 = " + (placement.size() - 1) + " split points");
        }
        if (id == null) {
            in.problem("node.id", "is required");
        } else if (!nodes.isEmpty() && !nodes.containsKey(nodeId)) {
            in.problem("node.id", "'" + nodeId + "' is not in cluster.nodes " + nodes.keySet());
        }
        in.rejectUnknownKeys();
        in.failIfProblems();
        keysRead = Set.copyOf(in.usedKeys());
    }

    /** {@code cluster.preferred-leaders}: node ids of the cluster, each once; empty when not set. */
    private static List<String> preferredLeaders(ConfigParser in, Set<String> nodes) {
        String listed = in.optional(Settings.CLUSTER_PREFERRED_LEADERS);
        if (listed == null) {
            return List.of();
        }
        List<String> preferred = new ArrayList<>();
        for (String raw : listed.split(",")) {
            String id = raw.trim();
            if (id.isEmpty()) {
                in.problem("cluster.preferred-leaders", "has an empty entry ('" + listed + "')");
            } else if (!nodes.isEmpty() && !nodes.contains(id)) {
                in.problem("cluster.preferred-leaders", "names '" + id + "', which is not in cluster.nodes " + nodes);
            } else if (preferred.contains(id)) {
                in.problem("cluster.preferred-leaders", "names " + id + " twice");
            } else {
                preferred.add(id);
            }
        }
        return List.copyOf(preferred);
    }

    /**
     * Reads and validates a configuration file, then the process's environment ({@link #ENVIRONMENT_PREFIX}), then
     * {@code overrides} (key=value): each later source wins.
     */
    public static ServerConfig load(Path file, Map<String, String> overrides) throws IOException {
        return load(file, System.getenv(), overrides);
    }

    /** {@link #load(Path, Map)} with the environment given. */
    static ServerConfig load(Path file, Map<String, String> environment, Map<String, String> overrides)
            throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        overrides.forEach(properties::setProperty);
        return new ServerConfig(new ConfigParser(properties, environment, overrides.keySet()));
    }

    /** Validates a configuration given as properties. */
    public static ServerConfig of(Properties properties) {
        return new ServerConfig(new ConfigParser(properties, Map.of(), Set.of()));
    }

    /**
     * Settings may come from environment variables named {@code DURO_} and the key in capitals with every {@code .}
     * and {@code -} as {@code _}: {@code engine.outcomes-retained} is {@code DURO_ENGINE_OUTCOMES_RETAINED},
     * {@code node.n1.address} is {@code DURO_NODE_N1_ADDRESS}. One naming no setting is an error, except the tools'
     * own ({@code DURO_JAVA_OPTS}, {@code DURO_JEPSEN_*}). {@link ConfigParser} reads them.
     */
    public static final String ENVIRONMENT_PREFIX = "DURO_";

    public String clusterName() {
        return clusterName;
    }

    public String nodeId() {
        return nodeId;
    }

    public Node self() {
        return Objects.requireNonNull(nodes.get(nodeId), "node.id is among cluster.nodes");
    }

    /**
     * The host this node's client, Raft and HTTP endpoints bind to ({@code server.bind-host}; by default the host
     * of its own {@code node.<id>.address}); {@code 0.0.0.0} binds every interface, as a container wants.
     */
    public String bindHost() {
        return bindHost != null ? bindHost : self().address().host();
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    public Map<String, Node> nodes() {
        return nodes;
    }

    /** Per partition, the ids of its replicas. Which of them leads is {@link #preferredLeaders}' to say. */
    public List<List<String>> placement() {
        return placement;
    }

    /**
     * {@code cluster.preferred-leaders}: the nodes partitions' leaderships are handed to, most preferred first;
     * empty when elections alone decide.
     */
    public List<String> preferredLeaders() {
        return preferredLeaders;
    }

    public int partitionCount() {
        return placement.size();
    }

    /** {@code hash}, or {@code range:split1,split2,...}. */
    public String partitioner() {
        return partitioner;
    }

    public Limits limits() {
        return limits;
    }

    public EngineSettings engine() {
        return engine;
    }

    public boolean fsync() {
        return fsync;
    }

    public long snapshotEveryEntries() {
        return snapshotEveryEntries;
    }

    public int batchCommandsMax() {
        return batchCommandsMax;
    }

    public int proposalsInFlightMax() {
        return proposalsInFlightMax;
    }

    /** {@code raft.batch-linger-micros}: how long a busy partition's next log entry waits for more commands. */
    public int batchLingerMicros() {
        return batchLingerMicros;
    }

    /** {@code auth.refresh-millis}. */
    public Duration authRefresh() {
        return authRefresh;
    }

    /** {@code auth.password-iterations}. */
    public int authPasswordIterations() {
        return authPasswordIterations;
    }

    public Duration readWaitMax() {
        return readWaitMax;
    }

    public Duration commitTimeout() {
        return commitTimeout;
    }

    /**
     * How far (in deliveries) this node's replica of a participant may be behind the newest counter the node heard
     * from that partition for the node to coordinate a commit: a replica catching up would hold the answer back.
     */
    public long coordinatorLagMax() {
        return coordinatorLagMax;
    }

    /** The port of {@link NodeHttp} (health, readiness, metrics): -1 for none, 0 for any free one. */
    public int httpPort() {
        return httpPort;
    }

    public int inflightCommitsMax() {
        return inflightCommitsMax;
    }

    public Duration tickInterval() {
        return tickInterval;
    }

    public Duration frontierInterval() {
        return frontierInterval;
    }

    public int frameBytesMax() {
        return frameBytesMax;
    }

    /** {@code limits.scan-keys-max}: most keys one scan request returns. */
    public int scanKeysMax() {
        return scanKeysMax;
    }

    /** How the node writes its log lines: {@code text} or {@code json} (one object per line). */
    public String logFormat() {
        return logFormat;
    }

    /** The node's TLS files ({@code tls.*}), or null when TLS is off (plaintext, loopback development only). */
    public @Nullable TlsMaterial tls() {
        return tls;
    }

    /** Everything configuration errors report at once. */
    public static final class InvalidConfigException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private final List<String> problems;

        InvalidConfigException(List<String> problems) {
            super("invalid configuration (" + problems.size() + " problem" + (problems.size() == 1 ? "" : "s")
                    + "):\n  - " + String.join("\n  - ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    /** The keys this configuration was read with, per-node and per-partition ones spelt out. */
    Set<String> keysRead() {
        return keysRead;
    }
}
