package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes example (docker/k8s/duro.yaml) is one cluster, checked the way a pod would see it: the ConfigMap's
 * properties with each pod's environment are a valid node configuration (read by {@link ServerConfig} itself, for
 * every pod the StatefulSet makes), the cluster's nodes are exactly those pods at their stable DNS names, and the
 * ports, probes, volumes and user agree with what the node and the image (docker/Dockerfile) do.
 */
class KubernetesConfigTest {
    private static final Path DOCKER = Path.of("..", "docker");
    private static final Path MANIFEST = DOCKER.resolve("k8s").resolve("duro.yaml");
    private static final String CONFIG_IN_CONTAINER = "/etc/duro/node.properties";
    private static final String CONFIG_DIRECTORY = "/etc/duro";
    private static final String CONFIG_FILE_NAME = "node.properties";

    @TempDir
    Path scratch;

    /** The manifest's objects by kind and name, as "StatefulSet/duro". */
    private Map<String, YamlTree> objects;

    private YamlTree statefulSet;
    private YamlTree pod;
    private YamlTree container;
    private List<String> podNames;
    /** Every pod's configuration, by pod name, as the node reads it. */
    private final Map<String, ServerConfig> configs = new LinkedHashMap<>();

    @BeforeEach
    void readTheManifestAsEveryPodWould() throws IOException {
        objects = new LinkedHashMap<>();
        for (YamlTree object : YamlTree.documents(MANIFEST)) {
            String name = object.get("kind").text() + "/"
                    + object.get("metadata").get("name").text();
            assertEquals(null, objects.put(name, object), "the manifest defines " + name + " once");
        }
        statefulSet = only("StatefulSet");
        pod = statefulSet.get("spec").get("template");
        List<YamlTree> containers = pod.get("spec").get("containers").items();
        assertEquals(1, containers.size(), "a pod runs one container, the node");
        container = containers.get(0);

        int replicas = statefulSet.get("spec").get("replicas").number();
        podNames = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            // A StatefulSet names its pods NAME-0, NAME-1, ...
            podNames.add(statefulSet.get("metadata").get("name").text() + "-" + i);
        }
        Path configFile = scratch.resolve(CONFIG_FILE_NAME);
        Files.writeString(configFile, mountedConfiguration(), StandardCharsets.UTF_8);
        for (String podName : podNames) {
            // Throws, naming every problem, if the pod's node would refuse to start.
            configs.put(podName, ServerConfig.load(configFile, environment(podName), Map.of()));
        }
    }

    @Test
    void everyPodRunsItsOwnNodeAndTheClusterIsExactlyThePods() {
        for (Map.Entry<String, ServerConfig> entry : configs.entrySet()) {
            String podName = entry.getKey();
            ServerConfig config = entry.getValue();
            assertEquals(podName, config.nodeId(), "pod " + podName + " runs the node named after it");
            assertEquals(
                    "0.0.0.0",
                    config.bindHost(),
                    podName + " binds every interface: its own DNS name may not be published when it starts");
            assertEquals(
                    Set.copyOf(podNames),
                    config.nodes().keySet(),
                    "the cluster's nodes are exactly the StatefulSet's pods, as " + podName + " sees them");
        }
        ServerConfigTest.assertOneCluster(configs);
    }

    @Test
    void nodesReachEachOtherAtThePodsStableNamesOnTheContainersPorts() {
        YamlTree headless =
                object("Service/" + statefulSet.get("spec").get("serviceName").text());
        assertEquals("None", headless.get("spec").get("clusterIP").text(""), "the peers' service is headless");
        assertEquals(
                "true",
                headless.get("spec").get("publishNotReadyAddresses").text("false"),
                "peers find a pod before it is ready: it becomes ready only once its partitions elected leaders");
        assertSelects(headless, "the headless service");
        String domain = headless.get("metadata").get("name").text();

        Map<String, Integer> ports = containerPorts();
        for (ServerConfig.Node node : configs.values().iterator().next().nodes().values()) {
            String stableName = node.id() + "." + domain;
            assertEquals(stableName, node.address().host(), node.id() + "'s client address is its pod's DNS name");
            assertEquals(stableName, node.raft().host(), node.id() + "'s Raft address is its pod's DNS name");
            assertTrue(
                    ports.containsValue(node.address().port()),
                    node.id() + "'s client port " + node.address().port() + " is a container port: " + ports);
            assertTrue(
                    ports.containsValue(node.raft().port()),
                    node.id() + "'s Raft port " + node.raft().port() + " is a container port: " + ports);
        }
    }

    @Test
    void clientsInsideTheClusterReachAnyNodeThroughTheClientService() {
        YamlTree client = null;
        for (Map.Entry<String, YamlTree> entry : objects.entrySet()) {
            if (entry.getKey().startsWith("Service/")
                    && !"None"
                            .equals(entry.getValue()
                                    .get("spec")
                                    .get("clusterIP")
                                    .text(""))) {
                assertEquals(null, client, "one service with a cluster address, for clients");
                client = entry.getValue();
            }
        }
        assertTrue(client != null, "a service with a cluster address lets clients start anywhere");
        assertSelects(client, "the client service");
        int clientPort = configs.values().iterator().next().self().address().port();
        for (YamlTree port : client.get("spec").get("ports").items()) {
            String target = port.get("targetPort").text(port.get("port").text());
            assertEquals(clientPort, containerPort(target), "the client service leads to the nodes' client port");
        }
    }

    @Test
    void probesAskTheHttpPortThatServerHttpPortNames() {
        for (ServerConfig config : configs.values()) {
            assertTrue(config.httpPort() > 0, config.nodeId() + " serves health and metrics: server.http-port");
            assertProbe("readinessProbe", "/ready", config.httpPort());
            assertProbe("livenessProbe", "/health", config.httpPort());
            assertProbe("startupProbe", "/health", config.httpPort());

            YamlTree annotations = pod.get("metadata").get("annotations");
            assertEquals(
                    Integer.toString(config.httpPort()),
                    annotations.get("prometheus.io/port").text(),
                    "Prometheus's pod discovery scrapes the HTTP port");
            assertEquals("/metrics", annotations.get("prometheus.io/path").text("/metrics"));
        }
    }

    @Test
    void eachPodKeepsItsDataOnItsOwnPersistentVolume() {
        List<String> claims = new ArrayList<>();
        for (YamlTree claim :
                statefulSet.get("spec").get("volumeClaimTemplates").items()) {
            claims.add(claim.get("metadata").get("name").text());
        }
        String mountPath = null;
        for (YamlTree mount : container.get("volumeMounts").items()) {
            if (claims.contains(mount.get("name").text())) {
                assertEquals(null, mountPath, "one volume claim holds the data");
                assertNotEquals("true", mount.get("readOnly").text("false"), "the data volume is writable");
                mountPath = mount.get("mountPath").text();
            }
        }
        assertTrue(mountPath != null, "a volume claim template is mounted: " + claims);
        for (ServerConfig config : configs.values()) {
            assertEquals(
                    mountPath,
                    config.dataDirectory().toString(),
                    config.nodeId() + " keeps its data (data.dir) on its volume");
        }
    }

    @Test
    void podsStartTogetherAndAreDisruptedOneAtATime() {
        int majorityMax = 0;
        int spareMin = Integer.MAX_VALUE;
        for (List<String> replicas : configs.values().iterator().next().placement()) {
            int majority = replicas.size() / 2 + 1;
            majorityMax = Math.max(majorityMax, majority);
            spareMin = Math.min(spareMin, replicas.size() - majority);
        }
        if (majorityMax > 1) {
            // OrderedReady would wait for the first pod to be ready before starting the second: it never is alone.
            assertEquals(
                    "Parallel",
                    statefulSet.get("spec").get("podManagementPolicy").text("OrderedReady"),
                    "a partition needs " + majorityMax + " replicas for a leader, so the pods start together");
        }
        YamlTree budget = only("PodDisruptionBudget");
        assertSelects(budget, "the disruption budget");
        int unavailable = budget.get("spec").get("maxUnavailable").number();
        assertTrue(
                unavailable >= 1 && unavailable <= spareMin,
                "evictions take at most " + spareMin + " pod(s) at once, so every partition keeps a majority: "
                        + unavailable);
    }

    @Test
    void podsRunAsTheImagesUserWhoMayWriteTheVolume() throws IOException {
        String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"), StandardCharsets.UTF_8);
        Matcher user = Pattern.compile("(?m)^USER (\\d+):(\\d+)\\s*$").matcher(dockerfile);
        assertTrue(user.find(), "the image names its user and group by number, for runAsNonRoot");
        YamlTree security = pod.get("spec").get("securityContext");
        assertEquals("true", security.get("runAsNonRoot").text());
        assertEquals(user.group(1), security.get("runAsUser").text(), "the pod runs as the image's user");
        assertEquals(user.group(2), security.get("runAsGroup").text(), "the pod runs as the image's group");
        assertEquals(user.group(2), security.get("fsGroup").text(), "the image's group owns the volumes");
        assertTrue(
                dockerfile.contains("\"--config\", \"" + CONFIG_IN_CONTAINER + "\""),
                "the image reads " + CONFIG_IN_CONTAINER + ", where the ConfigMap is mounted");
    }

    // ---- how a pod sees the manifest ----

    /** The text a pod finds at {@value #CONFIG_IN_CONTAINER}: a ConfigMap key, mounted as a directory or a file. */
    private String mountedConfiguration() {
        for (YamlTree mount : container.get("volumeMounts").items()) {
            String path = mount.get("mountPath").text();
            String key;
            if (path.equals(CONFIG_DIRECTORY)) {
                key = CONFIG_FILE_NAME;
            } else if (path.equals(CONFIG_IN_CONTAINER)) {
                key = mount.get("subPath").text();
            } else {
                continue;
            }
            YamlTree volume = pod.get("spec")
                    .get("volumes")
                    .itemWith("name", mount.get("name").text());
            YamlTree configMap =
                    object("ConfigMap/" + volume.get("configMap").get("name").text());
            if (path.equals(CONFIG_DIRECTORY)
                    && volume.get("configMap").get("items").present()) {
                // Items pick the keys a directory shows, each under its own path.
                key = volume.get("configMap")
                        .get("items")
                        .itemWith("path", CONFIG_FILE_NAME)
                        .get("key")
                        .text();
            }
            return configMap.get("data").get(key).text();
        }
        throw new AssertionError("the container mounts nothing at " + CONFIG_IN_CONTAINER);
    }

    /**
     * The DURO_ variables pod {@code podName} sees: the container's own, and the service links Kubernetes adds
     * unless the pod turns them off (a service named duro would give DURO_SERVICE_HOST, which names no setting).
     */
    private Map<String, String> environment(String podName) {
        Map<String, String> environment = new TreeMap<>();
        assertTrue(!container.get("envFrom").present(), "every variable is listed, so that this test sees it");
        for (YamlTree variable : container.get("env").items()) {
            String name = variable.get("name").text();
            YamlTree from = variable.get("valueFrom");
            if (!from.present()) {
                environment.put(name, variable.get("value").text(""));
                continue;
            }
            String field = from.get("fieldRef").get("fieldPath").text();
            assertEquals("metadata.name", field, name + ": the pod's name is the one field this test models");
            environment.put(name, podName);
        }
        if (!"false".equals(pod.get("spec").get("enableServiceLinks").text("true"))) {
            for (Map.Entry<String, YamlTree> entry : objects.entrySet()) {
                YamlTree spec = entry.getValue().get("spec");
                if (entry.getKey().startsWith("Service/")
                        && !"None".equals(spec.get("clusterIP").text(""))) {
                    String prefix = entry.getValue()
                            .get("metadata")
                            .get("name")
                            .text()
                            .toUpperCase(Locale.ROOT)
                            .replace('-', '_');
                    String port = spec.get("ports").items().get(0).get("port").text();
                    environment.put(prefix + "_SERVICE_HOST", "cluster-ip");
                    environment.put(prefix + "_SERVICE_PORT", port);
                    environment.put(prefix + "_PORT", "tcp://cluster-ip:" + port);
                }
            }
        }
        return environment;
    }

    private Map<String, Integer> containerPorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (YamlTree port : container.get("ports").items()) {
            ports.put(port.get("name").text(), port.get("containerPort").number());
        }
        return ports;
    }

    /** A probe's or service's port, given by name or by number. */
    private int containerPort(String nameOrNumber) {
        Integer named = containerPorts().get(nameOrNumber);
        if (named != null) {
            return named;
        }
        try {
            return Integer.parseInt(nameOrNumber);
        } catch (NumberFormatException e) {
            throw new AssertionError("no container port is named " + nameOrNumber + ": " + containerPorts(), e);
        }
    }

    private void assertProbe(String probe, String path, int httpPort) {
        YamlTree get = container.get(probe).get("httpGet");
        assertEquals(path, get.get("path").text(), probe + " asks " + path);
        assertEquals(httpPort, containerPort(get.get("port").text()), probe + " asks server.http-port");
    }

    /** Whether {@code selecting}'s selector picks the StatefulSet's pods. */
    private void assertSelects(YamlTree selecting, String what) {
        YamlTree selector = selecting.get("spec").get("selector");
        if (selector.get("matchLabels").present()) {
            selector = selector.get("matchLabels");
        }
        Map<String, YamlTree> labels = pod.get("metadata").get("labels").entries();
        assertTrue(!selector.entries().isEmpty(), what + " selects by labels");
        selector.entries()
                .forEach((label, value) -> assertEquals(
                        value.text(),
                        labels.containsKey(label) ? labels.get(label).text() : null,
                        what + " selects the StatefulSet's pods by " + label));
    }

    private YamlTree object(String kindAndName) {
        YamlTree object = objects.get(kindAndName);
        if (object == null) {
            throw new AssertionError("the manifest defines no " + kindAndName + ": " + objects.keySet());
        }
        return object;
    }

    private YamlTree only(String kind) {
        List<YamlTree> found = new ArrayList<>();
        objects.forEach((name, object) -> {
            if (name.startsWith(kind + "/")) {
                found.add(object);
            }
        });
        assertEquals(1, found.size(), "the manifest defines one " + kind + ": " + objects.keySet());
        return found.get(0);
    }
}
