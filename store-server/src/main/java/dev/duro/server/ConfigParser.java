package dev.duro.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.Nullable;

/**
 * Reads a node's settings ({@link Settings}) from properties and the environment, typed and bounded, remembering
 * which keys were read (so unknown ones are refused) and every problem found (so all are reported at once).
 */
final class ConfigParser {
    private final Properties properties;
    /** The settings' environment variables, by name. */
    private final Map<String, String> environment = new TreeMap<>();
    /** Keys given on the command line: they win over the environment. */
    private final Set<String> overridden;

    private final Set<String> used = new TreeSet<>();
    private final Set<String> usedVariables = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    ConfigParser(Properties properties, Map<String, String> environment, Set<String> overridden) {
        this.properties = properties;
        this.overridden = Set.copyOf(overridden);
        environment.forEach((name, value) -> {
            if (name.startsWith(ServerConfig.ENVIRONMENT_PREFIX) && !reservedForTools(name)) {
                this.environment.put(name, value);
            }
        });
    }

    /** The environment variable that sets {@code key} ({@link ServerConfig#ENVIRONMENT_PREFIX}). */
    static String environmentName(String key) {
        return ServerConfig.ENVIRONMENT_PREFIX
                + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    static boolean reservedForTools(String variable) {
        return variable.equals("DURO_JAVA_OPTS") || variable.startsWith("DURO_JEPSEN_");
    }

    Set<String> usedKeys() {
        return used;
    }

    void problem(String key, String message) {
        problems.add(key + " " + message);
    }

    /** The value of {@code key}, or null when it is not set (nor its environment variable). */
    @Nullable
    String optional(String key) {
        used.add(key);
        String value = properties.getProperty(key);
        String variable = environmentName(key);
        if (environment.containsKey(variable)) {
            usedVariables.add(variable);
            if (!overridden.contains(key)) {
                value = environment.get(variable);
            }
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    String string(String key, String fallback) {
        String value = optional(key);
        return value == null ? fallback : value;
    }

    /** A setting with a default: its value, or the default. */
    String string(Settings.Text setting) {
        String fallback = setting.defaultValue();
        if (fallback == null) {
            throw new IllegalArgumentException(setting.key() + " has no default: read it with optional()");
        }
        return string(setting.key(), fallback);
    }

    /** A setting whose default the parser computes: its value, or null when it is not set. */
    @Nullable
    String optional(Settings.Text setting) {
        return optional(setting.key());
    }

    int integer(Settings.Int setting) {
        return integer(setting.key(), setting.defaultValue(), setting.min(), setting.max());
    }

    boolean bool(Settings.Flag setting) {
        return bool(setting.key(), setting.defaultValue());
    }

    int integer(String key, int fallback, int minimum, int maximum) {
        String text = optional(key);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.replace("_", ""));
            if (value < minimum || value > maximum) {
                problem(key, "must be in [" + minimum + ", " + maximum + "], was " + value);
                return fallback;
            }
            return value;
        } catch (NumberFormatException e) {
            problem(key, "is not an integer: '" + text + "'");
            return fallback;
        }
    }

    boolean bool(String key, boolean fallback) {
        String text = optional(key);
        if (text == null) {
            return fallback;
        }
        if (!text.equals("true") && !text.equals("false")) {
            problem(key, "must be true or false, was '" + text + "'");
            return fallback;
        }
        return Boolean.parseBoolean(text);
    }

    Map<String, ServerConfig.Node> nodes() {
        Map<String, ServerConfig.Node> nodes = new LinkedHashMap<>();
        String list = optional(Settings.CLUSTER_NODES);
        if (list == null) {
            problem("cluster.nodes", "is required (comma-separated node ids)");
            return nodes;
        }
        Set<String> endpoints = new TreeSet<>();
        for (String raw : list.split(",")) {
            String id = raw.trim();
            if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
                problem("cluster.nodes", "has an invalid node id '" + id + "' (letters, digits, - and _)");
                continue;
            }
            ServerConfig.HostPort address = hostPort(Settings.NODE_ADDRESS.keyFor(id));
            ServerConfig.HostPort raft = hostPort(Settings.NODE_RAFT.keyFor(id));
            if (address == null || raft == null) {
                continue;
            }
            for (ServerConfig.HostPort endpoint : List.of(address, raft)) {
                if (!endpoints.add(endpoint.toString()) && endpoint.port() != 0) {
                    problem("node." + id, "reuses endpoint " + endpoint);
                }
            }
            ServerConfig.HostPort advertised = optionalHostPort(Settings.NODE_ADVERTISE.keyFor(id), address);
            if (nodes.put(id, new ServerConfig.Node(id, address, raft, advertised)) != null) {
                problem("cluster.nodes", "lists " + id + " twice");
            }
        }
        return nodes;
    }

    private ServerConfig.HostPort optionalHostPort(String key, ServerConfig.HostPort fallback) {
        ServerConfig.HostPort given = optional(key) == null ? null : hostPort(key);
        return given == null ? fallback : given;
    }

    /** The host:port at {@code key}, or null after recording the problem when it is missing or malformed. */
    @Nullable
    private ServerConfig.HostPort hostPort(String key) {
        String text = optional(key);
        if (text == null) {
            problem(key, "is required (host:port)");
            return null;
        }
        try {
            return ServerConfig.HostPort.parse(text);
        } catch (IllegalArgumentException e) {
            problem(key, String.valueOf(e.getMessage()));
            return null;
        }
    }

    List<List<String>> placement(Map<String, ServerConfig.Node> nodes) {
        int partitions = integer(Settings.CLUSTER_PARTITIONS);
        Settings.Int replicationSetting = Settings.CLUSTER_REPLICATION;
        int replication = integer(
                replicationSetting.key(),
                Math.min(replicationSetting.defaultValue(), Math.max(1, nodes.size())),
                replicationSetting.min(),
                replicationSetting.max());
        List<String> ids = new ArrayList<>(nodes.keySet());
        List<List<String>> placement = new ArrayList<>(partitions);
        if (ids.isEmpty()) {
            return placement;
        }
        if (replication > ids.size()) {
            problem("cluster.replication", "is " + replication + " but only " + ids.size() + " nodes exist");
            replication = ids.size();
        }
        for (int p = 0; p < partitions; p++) {
            String explicit = optional(Settings.PARTITION_REPLICAS.keyFor(p));
            List<String> replicas = new ArrayList<>();
            if (explicit != null) {
                for (String raw : explicit.split(",")) {
                    String id = raw.trim();
                    if (!nodes.containsKey(id)) {
                        problem("partition." + p + ".replicas", "names unknown node '" + id + "'");
                    } else if (replicas.contains(id)) {
                        problem("partition." + p + ".replicas", "names " + id + " twice");
                    } else {
                        replicas.add(id);
                    }
                }
            } else {
                for (int r = 0; r < replication; r++) {
                    replicas.add(ids.get((p + r) % ids.size())); // round robin spreads the leaders
                }
            }
            if (replicas.isEmpty()) {
                problem("partition." + p + ".replicas", "is empty");
            }
            placement.add(List.copyOf(replicas));
        }
        return placement;
    }

    void rejectUnknownKeys() {
        for (String key : properties.stringPropertyNames()) {
            if (!used.contains(key)) {
                problem(key, "is not a known setting (misspelt?)");
            }
        }
        for (String variable : environment.keySet()) {
            if (!usedVariables.contains(variable)) {
                problems.add("environment variable " + variable + " names no setting (misspelt?)");
            }
        }
    }

    void failIfProblems() {
        if (!problems.isEmpty()) {
            throw new ServerConfig.InvalidConfigException(problems);
        }
    }
}
