package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.base.Splitter;
import dev.duro.server.tls.CertsCommand;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docker-compose cluster is one cluster: every service a plain {@code docker compose up} starts mounts a valid
 * node configuration, all of them describe the same cluster, each names its own service as its node, and every node
 * of the cluster runs as a service. The monitoring services start only with their profile, Prometheus scrapes exactly
 * those nodes, and Grafana finds its data source and dashboards where they are mounted.
 */
class DockerComposeConfigTest {
    private static final Path DOCKER = Path.of("..", "docker");
    private static final Path COMPOSE = DOCKER.resolve("docker-compose.yml");
    private static final Splitter COLON = Splitter.on(':');
    private static final String CONFIG_IN_CONTAINER = "/etc/duro/node.properties";
    private static final String MONITORING = "monitoring";
    /** Where the official images read their configuration. */
    private static final String PROMETHEUS_CONFIG = "/etc/prometheus/prometheus.yml";

    private static final String TLS_IN_CONTAINER = "/etc/duro/tls";

    private static final String GRAFANA_PROVISIONING = "/etc/grafana/provisioning";

    /** Every service, by name. */
    private Map<String, YamlTree> services;
    /** The services without a profile, which a plain {@code up} starts: the nodes. */
    private final Map<String, YamlTree> nodes = new LinkedHashMap<>();
    /** Each node's configuration, by service, as the node reads it. */
    private final Map<String, ServerConfig> configs = new LinkedHashMap<>();

    @BeforeEach
    void readTheComposeFile() throws IOException {
        services = YamlTree.document(COMPOSE).get("services").entries();
        assertFalse(services.isEmpty(), "the compose file defines services");
        services.forEach((name, service) -> {
            if (!service.get("profiles").present()) {
                nodes.put(name, service);
            }
        });
        for (Map.Entry<String, YamlTree> node : nodes.entrySet()) {
            assertTrue(
                    mountsSomethingAt(node.getValue(), CONFIG_IN_CONTAINER),
                    node.getKey() + " has no profile, so a plain up starts it, but it is no node: it mounts nothing at "
                            + CONFIG_IN_CONTAINER);
            Path file = hostPath(node.getKey(), CONFIG_IN_CONTAINER);
            // Throws, naming every problem, if the node would refuse to start.
            configs.put(node.getKey(), ServerConfig.load(file, environment(node.getValue()), Map.of()));
        }
    }

    @Test
    void everyServiceRunsANodeOfOneAndTheSameCluster() {
        for (Map.Entry<String, ServerConfig> entry : configs.entrySet()) {
            String name = entry.getKey();
            ServerConfig config = entry.getValue();
            YamlTree service = nodes.get(name);

            assertEquals(name, config.nodeId(), name + "'s configuration is that of its own service");
            assertEquals(name, service.get("hostname").text(), "the service's host name");
            ServerConfig.Node self = config.self();
            assertEquals(name, self.address().host(), "node " + name + " is reached by name");
            assertTrue(
                    publishedContainerPorts(service).contains(self.address().port()),
                    name + " publishes its client port " + self.address().port() + ": " + service.get("ports"));
            assertEquals(
                    "localhost:" + hostPortFor(service, self.address().port()),
                    self.advertised().toString(),
                    name + " advertises to clients the host port that reaches its client port");
            assertEquals("0.0.0.0", config.bindHost(), name + " binds every interface of its container");
            assertEquals(
                    dataVolumeTarget(name), config.dataDirectory().toString(), name + " keeps its data on its volume");
            assertTrue(config.httpPort() > 0, name + " serves health and metrics: server.http-port");
            assertTrue(
                    publishedContainerPorts(service).contains(config.httpPort()),
                    name + " publishes its HTTP port " + config.httpPort() + ": " + service.get("ports"));
            String readiness = "http://" + name + ":" + config.httpPort() + "/ready";
            assertTrue(
                    texts(service.get("healthcheck").get("test")).contains(readiness),
                    name + "'s health check asks its own " + readiness + ": " + service.get("healthcheck"));
        }

        ServerConfigTest.assertOneCluster(configs);
        ServerConfig first = configs.values().iterator().next();
        assertEquals(
                configs.size(),
                configs.values().stream().map(ServerConfig::nodeId).distinct().count(),
                "node ids are distinct");
        assertEquals(
                first.nodes().keySet(),
                configs.keySet(),
                "every node of the cluster runs as a service, and every service a plain up starts is a node");
    }

    @Test
    void theImageReadsTheConfigurationWhereTheServicesMountIt() throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"), StandardCharsets.UTF_8);
        assertTrue(dockerfile.contains("\"--config\", \"" + CONFIG_IN_CONTAINER + "\""), dockerfile);
    }

    @Test
    void monitoringStartsOnlyWithItsProfileFromPinnedImages() {
        for (String name : List.of("prometheus", "grafana")) {
            YamlTree service = service(name);
            assertEquals(
                    List.of(MONITORING),
                    texts(service.get("profiles")),
                    name + " starts only with --profile " + MONITORING + ", so a plain up starts just the nodes");
            String image = service.get("image").text();
            String tag = image.substring(image.lastIndexOf('/') + 1).contains(":")
                    ? image.substring(image.lastIndexOf(':') + 1)
                    : "latest";
            assertNotEquals("latest", tag, name + "'s image is pinned to a version: " + image);
        }
        services.forEach((name, service) -> {
            if (!nodes.containsKey(name)) {
                assertEquals(List.of(MONITORING), texts(service.get("profiles")), name + " is monitoring, or a node");
            }
        });
    }

    @Test
    void everyFileTheMonitoringServicesMountExists() {
        services.forEach((name, service) -> {
            if (nodes.containsKey(name)) {
                return;
            }
            for (YamlTree volume : service.get("volumes").items()) {
                String source = COLON.splitToList(volume.text()).get(0);
                if (source.startsWith(".") || source.startsWith("/")) {
                    Path file = DOCKER.resolve(source).normalize();
                    assertTrue(Files.exists(file), name + " mounts " + file + ", which must exist");
                }
            }
        });
    }

    @Test
    void prometheusScrapesExactlyTheNodesAtTheirHttpPorts() throws IOException {
        YamlTree prometheus = YamlTree.document(hostPath("prometheus", PROMETHEUS_CONFIG));
        Set<String> targets = new TreeSet<>();
        for (YamlTree job : prometheus.get("scrape_configs").items()) {
            assertEquals("/metrics", job.get("metrics_path").text("/metrics"), "the nodes serve /metrics");
            assertEquals("http", job.get("scheme").text("http"), "the nodes serve plain HTTP");
            for (YamlTree group : job.get("static_configs").items()) {
                for (String target : texts(group.get("targets"))) {
                    assertTrue(targets.add(target), target + " is scraped once");
                }
            }
        }
        Set<String> expected = new TreeSet<>();
        configs.forEach((name, config) -> expected.add(name + ":" + config.httpPort()));
        assertEquals(expected, targets, "Prometheus scrapes every node at its server.http-port, and nothing else");
    }

    @Test
    void grafanaQueriesThisPrometheusAndFindsTheDashboardsWhereTheyAreMounted() throws IOException {
        YamlTree grafana = service("grafana");
        assertTrue(publishedPorts(grafana).contains("3000:3000"), "Grafana answers at localhost:3000");
        Map<String, String> environment = environment(grafana);
        assertEquals("true", environment.get("GF_AUTH_ANONYMOUS_ENABLED"), "anyone may look");
        assertEquals("Viewer", environment.get("GF_AUTH_ANONYMOUS_ORG_ROLE"), "but only look");

        Path provisioning = hostPath("grafana", GRAFANA_PROVISIONING);
        YamlTree sources = YamlTree.document(provisioning.resolve("datasources").resolve("prometheus.yml"));
        YamlTree source = sources.get("datasources").itemWith("type", "prometheus");
        URI url = URI.create(source.get("url").text());
        assertEquals("prometheus", url.getHost(), "Grafana reaches Prometheus by its service name");
        assertTrue(
                publishedContainerPorts(service("prometheus")).contains(url.getPort()),
                "at the port Prometheus listens on: " + url);
        assertEquals("true", source.get("isDefault").text(), "the dashboard's data source variable picks it");

        YamlTree providers =
                YamlTree.document(provisioning.resolve("dashboards").resolve("duro.yml"));
        for (YamlTree provider : providers.get("providers").items()) {
            String path = provider.get("options").get("path").text();
            Path dashboards = hostPath("grafana", path);
            assertTrue(
                    Files.isRegularFile(dashboards.resolve("duro.json")),
                    "the dashboard provider's " + path + " holds the dashboard: " + dashboards);
        }
        String home = environment.get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");
        if (home != null) {
            assertTrue(Files.isRegularFile(hostPath("grafana", home)), "the home dashboard " + home + " is mounted");
        }
    }

    // ---- reading the compose file ----

    private YamlTree service(String name) {
        YamlTree service = services.get(name);
        assertNotNull(service, "the compose file defines " + name + ": " + services.keySet());
        return service;
    }

    /**
     * The host file or directory that service {@code name} sees at {@code containerPath}: the bind mount whose
     * target holds that path, resolved next to the compose file.
     */
    /**
     * docker-compose.tls.yml, laid over the compose file, mounts {@code docker/tls} in every node and points each at
     * its own certificate: with the files {@code ./duro certs} writes, every node starts with TLS on, presenting
     * its own identity.
     */
    @Test
    void theTlsVariantGivesEveryNodeItsOwnCertificateFromDuroCerts(@TempDir Path certificates) throws IOException {
        Map<String, YamlTree> overlay = YamlTree.document(DOCKER.resolve("docker-compose.tls.yml"))
                .get("services")
                .entries();
        assertEquals(nodes.keySet(), overlay.keySet(), "the TLS variant covers every node, and only nodes");
        Instant now = Instant.now();
        CertsCommand.write(
                certificates,
                new ArrayList<>(nodes.keySet()),
                List.of(),
                now.minusSeconds(60),
                now.plusSeconds(3600),
                TlsClusterTest.quiet());
        for (Map.Entry<String, YamlTree> entry : overlay.entrySet()) {
            String name = entry.getKey();
            assertEquals(
                    List.of("./tls:" + TLS_IN_CONTAINER + ":ro"),
                    texts(entry.getValue().get("volumes")),
                    name + " mounts docker/tls read-only");
            Map<String, String> environment = new TreeMap<>(environment(nodes.get(name)));
            environment(entry.getValue())
                    .forEach((variable, value) ->
                            environment.put(variable, value.replace(TLS_IN_CONTAINER, certificates.toString())));
            ServerConfig config = ServerConfig.load(hostPath(name, CONFIG_IN_CONTAINER), environment, Map.of());
            assertNotNull(config.tls(), name + " has TLS on");
            assertEquals(
                    "CN=node:" + name,
                    config.tls().certificate().getSubjectX500Principal().getName(),
                    name + " presents its own certificate");
        }
    }

    private Path hostPath(String name, String containerPath) {
        YamlTree service = service(name);
        for (YamlTree volume : service.get("volumes").items()) {
            List<String> parts = COLON.splitToList(volume.text());
            if (parts.size() < 2
                    || !(parts.get(0).startsWith(".") || parts.get(0).startsWith("/"))) {
                continue; // a named volume
            }
            String target = parts.get(1);
            if (containerPath.equals(target) || containerPath.startsWith(target + "/")) {
                Path file = DOCKER.resolve(parts.get(0))
                        .resolve(containerPath.substring(target.length()).replaceFirst("^/", ""))
                        .normalize();
                assertTrue(Files.exists(file), name + " mounts " + file + ", which must exist");
                return file;
            }
        }
        throw new AssertionError(name + " mounts nothing at " + containerPath + ": " + service.get("volumes"));
    }

    private static boolean mountsSomethingAt(YamlTree service, String containerPath) {
        for (YamlTree volume : service.get("volumes").items()) {
            List<String> parts = COLON.splitToList(volume.text());
            if (parts.size() >= 2 && parts.get(1).equals(containerPath)) {
                return true;
            }
        }
        return false;
    }

    /** Where the service's named data volume is mounted in the container. */
    private String dataVolumeTarget(String name) {
        String target = null;
        for (YamlTree volume : service(name).get("volumes").items()) {
            List<String> parts = COLON.splitToList(volume.text());
            if (parts.size() >= 2
                    && !parts.get(0).startsWith(".")
                    && !parts.get(0).startsWith("/")) {
                target = parts.get(1);
            }
        }
        assertNotNull(
                target, name + " has a named data volume: " + service(name).get("volumes"));
        return target;
    }

    /** The service's {@code environment}, given as a mapping or as a list of NAME=value. */
    private static Map<String, String> environment(YamlTree service) {
        Map<String, String> environment = new TreeMap<>();
        YamlTree given = service.get("environment");
        if (given.value() instanceof List<?>) {
            for (String entry : texts(given)) {
                int equals = entry.indexOf('=');
                // A bare NAME would come from the host's environment, which this test cannot see.
                assertTrue(equals > 0, "environment entry '" + entry + "' gives its value");
                environment.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
        } else if (given.present()) {
            given.entries().forEach((name, value) -> environment.put(name, value.text("")));
        }
        return environment;
    }

    /** The service's port mappings as written, "host:container". */
    private static List<String> publishedPorts(YamlTree service) {
        return texts(service.get("ports"));
    }

    /** The host port the service publishes for {@code containerPort}. */
    private static int hostPortFor(YamlTree service, int containerPort) {
        for (String mapping : publishedPorts(service)) {
            List<String> parts = COLON.splitToList(mapping);
            if (Integer.parseInt(parts.get(parts.size() - 1)) == containerPort) {
                return Integer.parseInt(parts.get(parts.size() - 2));
            }
        }
        throw new AssertionError("no host port published for container port " + containerPort);
    }

    private static Set<Integer> publishedContainerPorts(YamlTree service) {
        Set<Integer> ports = new TreeSet<>();
        for (String mapping : publishedPorts(service)) {
            List<String> parts = COLON.splitToList(mapping);
            ports.add(Integer.parseInt(parts.get(parts.size() - 1)));
        }
        return ports;
    }

    private static List<String> texts(YamlTree list) {
        List<String> texts = new ArrayList<>();
        for (YamlTree item : list.items()) {
            texts.add(item.text());
        }
        return texts;
    }
}
