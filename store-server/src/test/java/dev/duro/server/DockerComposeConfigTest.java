package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.base.Splitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docker-compose cluster is one cluster: every service mounts a valid node configuration, all of them
 * describe the same cluster, each names its own service as its node, and every node of the cluster runs as a
 * service. The compose file is read line by line: its shape (services, each with volumes and ports) is ours.
 */
class DockerComposeConfigTest {
    private static final Path DOCKER = Path.of("..", "docker");
    private static final Splitter COLON = Splitter.on(':');
    private static final String CONFIG_IN_CONTAINER = "/etc/duro/node.properties";

    private static final Pattern SERVICE = Pattern.compile("^  ([A-Za-z0-9_-]+):\\s*$");
    private static final Pattern SECTION = Pattern.compile("^    ([a-z_]+):\\s*(.*)$");
    private static final Pattern ITEM = Pattern.compile("^      - \"?([^\"]+)\"?\\s*$");

    /** What the compose file says about one service. */
    record Service(String name, Map<String, String> settings, Map<String, List<String>> lists) {
        List<String> list(String key) {
            return lists.getOrDefault(key, List.of());
        }
    }

    @Test
    void everyServiceRunsANodeOfOneAndTheSameCluster() throws IOException {
        Map<String, Service> services = services(DOCKER.resolve("docker-compose.yml"));
        assertFalse(services.isEmpty(), "the compose file defines services");

        Map<String, ServerConfig> configs = new LinkedHashMap<>();
        for (Service service : services.values()) {
            Path file = configFileOf(service);
            ServerConfig config = ServerConfig.load(file, Map.of()); // throws, naming every problem, if invalid
            configs.put(service.name(), config);

            assertEquals(service.name(), config.nodeId(), file + " is the configuration of its own service");
            assertEquals(service.name(), service.settings().get("hostname"), "the service's host name");
            ServerConfig.Node self = config.self();
            assertEquals(service.name(), self.address().host(), "node " + service.name() + " is reached by name");
            assertTrue(
                    publishesContainerPort(service, self.address().port()),
                    service.name() + " publishes its client port "
                            + self.address().port() + ": " + service.list("ports"));
            assertEquals(
                    dataVolumeTarget(service),
                    config.dataDirectory().toString(),
                    service.name() + " keeps its data on its volume");
            assertTrue(config.httpPort() > 0, service.name() + " serves health and metrics: server.http-port");
            assertTrue(
                    publishesContainerPort(service, config.httpPort()),
                    service.name() + " publishes its HTTP port " + config.httpPort() + ": " + service.list("ports"));
            String readiness = "\"http://" + service.name() + ":" + config.httpPort() + "/ready\"";
            assertTrue(
                    Files.readString(DOCKER.resolve("docker-compose.yml")).contains(readiness),
                    service.name() + "'s health check asks its own " + readiness);
        }

        ServerConfig first = configs.values().iterator().next();
        for (Map.Entry<String, ServerConfig> entry : configs.entrySet()) {
            ServerConfig config = entry.getValue();
            String which = entry.getKey() + " and " + first.nodeId();
            assertEquals(first.clusterName(), config.clusterName(), which + " name the same cluster");
            assertEquals(first.nodes(), config.nodes(), which + " list the same nodes at the same addresses");
            assertEquals(first.placement(), config.placement(), which + " place the partitions alike");
            assertEquals(first.partitioner(), config.partitioner(), which + " partition keys alike");
            assertEquals(first.limits(), config.limits(), which + " have the same limits");
            assertEquals(first.engine(), config.engine(), which + " certify alike");
        }
        assertEquals(
                configs.size(),
                configs.values().stream().map(ServerConfig::nodeId).distinct().count(),
                "node ids are distinct");
        assertEquals(
                first.nodes().keySet(),
                configs.keySet(),
                "every node of the cluster runs as a service, and every service is a node");
    }

    @Test
    void theImageReadsTheConfigurationWhereTheServicesMountIt() throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"), StandardCharsets.UTF_8);
        assertTrue(dockerfile.contains("\"--config\", \"" + CONFIG_IN_CONTAINER + "\""), dockerfile);
    }

    // ---- reading the compose file ----

    private static Map<String, Service> services(Path compose) throws IOException {
        Map<String, Service> services = new LinkedHashMap<>();
        boolean inServices = false;
        Service current = null;
        String list = null;
        for (String line : Files.readAllLines(compose, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.stripLeading().startsWith("#")) {
                continue;
            }
            if (!line.startsWith(" ")) {
                inServices = line.startsWith("services:");
                current = null;
                continue;
            }
            if (!inServices) {
                continue;
            }
            Matcher service = SERVICE.matcher(line);
            Matcher section = SECTION.matcher(line);
            Matcher item = ITEM.matcher(line);
            if (service.matches()) {
                current = new Service(service.group(1), new LinkedHashMap<>(), new LinkedHashMap<>());
                services.put(current.name(), current);
                list = null;
            } else if (current != null && section.matches()) {
                String key = section.group(1);
                String value = section.group(2).trim();
                if (value.isEmpty()) {
                    list = key;
                    current.lists().put(key, new ArrayList<>());
                } else {
                    list = null;
                    current.settings().put(key, value);
                }
            } else if (current != null && list != null && item.matches()) {
                current.lists().get(list).add(item.group(1).trim());
            }
        }
        return services;
    }

    /** The host file a service mounts as its node configuration, resolved next to the compose file. */
    private static Path configFileOf(Service service) {
        for (String volume : service.list("volumes")) {
            List<String> parts = COLON.splitToList(volume);
            if (parts.size() >= 2 && parts.get(1).equals(CONFIG_IN_CONTAINER)) {
                Path file = DOCKER.resolve(parts.get(0)).normalize();
                assertTrue(Files.isRegularFile(file), service.name() + " mounts " + file + ", which must exist");
                return file;
            }
        }
        throw new AssertionError(service.name() + " mounts no " + CONFIG_IN_CONTAINER + ": " + service.list("volumes"));
    }

    /** Where the service's named data volume is mounted in the container. */
    private static String dataVolumeTarget(Service service) {
        String target = null;
        for (String volume : service.list("volumes")) {
            List<String> parts = COLON.splitToList(volume);
            if (parts.size() >= 2
                    && !parts.get(0).startsWith(".")
                    && !parts.get(0).startsWith("/")) {
                target = parts.get(1);
            }
        }
        assertNotNull(target, service.name() + " has a named data volume: " + service.list("volumes"));
        return target;
    }

    private static boolean publishesContainerPort(Service service, int port) {
        for (String mapping : service.list("ports")) {
            List<String> parts = COLON.splitToList(mapping);
            if (parts.get(parts.size() - 1).equals(Integer.toString(port))) {
                return true;
            }
        }
        return false;
    }
}
