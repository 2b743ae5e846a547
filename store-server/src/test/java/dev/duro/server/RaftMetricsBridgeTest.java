package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ratis's own metrics reach {@code /metrics} (README, "Metrics and health"): three real nodes in one JVM share
 * Ratis's process-wide registries, and each node publishes exactly its own groups' series, labelled with its node
 * and the partition, in a text Prometheus can parse beside Duro's series.
 */
class RaftMetricsBridgeTest {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @TempDir
    Path data;

    @Test
    void eachNodePublishesRatisMetricsOfItsOwnGroupsOnly() throws Exception {
        try (TestCluster cluster = TestCluster.builder(data)
                .nodes(3)
                .partitions(2)
                .replication(3)
                .set("server.http-port", "0")
                .start()) {
            try (DuroClient client = cluster.newClient()) {
                for (int i = 0; i < 20; i++) {
                    int n = i;
                    client.transact(tx -> {
                        tx.put("k" + n, "v" + n);
                        return null;
                    });
                }
            }
            Set<String> leaderSeries = new HashSet<>();
            for (String node : cluster.nodeIds()) {
                String text = Await.until(
                        "node " + node + " publishes Ratis's appended entries", Duration.ofSeconds(30), () -> {
                            String scraped = Http.body(
                                    "http://127.0.0.1:" + cluster.server(node).httpPort() + "/metrics");
                            return samples(scraped, "ratis_log_worker_append_entry_count_total")
                                                    .size()
                                            == 2
                                    ? Await.Poll.done(scraped)
                                    : Await.Poll.notYet(Http.grep(scraped, "ratis_log_worker_append_entry"));
                        });
                List<Map<String, String>> ratis = ratisSamples(text);
                assertFalse(ratis.isEmpty(), node + " has Ratis series");
                Set<String> nodes = new TreeSet<>();
                Set<String> partitions = new TreeSet<>();
                for (Map<String, String> labels : ratis) {
                    nodes.add(labels.get("node"));
                    if (labels.containsKey("partition")) {
                        partitions.add(labels.get("partition"));
                    }
                }
                assertEquals(Set.of(node), nodes, "only " + node + "'s own registries");
                assertEquals(Set.of("0", "1"), partitions, node + " replicates both partitions");
                for (Map<String, String> appended : samples(text, "ratis_log_worker_append_entry_count_total")) {
                    assertTrue(Double.parseDouble(appended.get("")) >= 1, node + " appended entries: " + appended);
                }
                assertTrue(
                        samples(text, "ratis_server_follower_append_entry_latency_seconds_count")
                                        .size()
                                == 2,
                        "timers become summaries:\n" + Http.grep(text, "ratis_server_follower_append_entry_latency"));
                assertTrue(
                        samples(text, "ratis_server_grpc_calls_started_total").isEmpty(), "gRPC calls are per node");
                assertFalse(
                        samples(text, "ratis_server_message_metrics_grpc_calls_started_total")
                                .isEmpty(),
                        "the node's gRPC services count their calls:\n" + Http.grep(text, "ratis_server_message"));
                for (Map<String, String> follower : samples(text, "ratis_log_appender_follower_match_index")) {
                    leaderSeries.add(follower.get("partition") + "/" + follower.get("peer"));
                    assertFalse(node.equals(follower.get("peer")), "a leader does not follow itself: " + follower);
                }
            }
            assertEquals(
                    4,
                    leaderSeries.size(),
                    "each partition's leader tracks its two followers by a peer label: " + leaderSeries);
        }
    }

    /**
     * Every sample line of {@code text} is well-formed and belongs to a family declared once with {@code # TYPE}
     * before it, so the bridged series cannot break the scrape of Duro's own. Returns the labels of every sample
     * named {@code ratis_…}, with the node.
     */
    private static List<Map<String, String>> ratisSamples(String text) {
        Set<String> typed = new HashSet<>();
        Set<String> series = new HashSet<>();
        List<Map<String, String>> ratis = new java.util.ArrayList<>();
        String family = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                family = line.split(" ")[2];
                assertTrue(typed.add(family), "family declared twice: " + family);
                continue;
            }
            if (line.startsWith("#") || line.isEmpty()) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            assertTrue(sample.matches(), "malformed sample: " + line);
            String name = sample.group(1);
            assertTrue(family != null && name.startsWith(family), "sample outside its family: " + line);
            assertTrue(series.add(name + "{" + sample.group(3) + "}"), "series twice: " + line);
            Double.parseDouble(sample.group(4).replace("+Inf", "Infinity"));
            if (name.startsWith("ratis_")) {
                ratis.add(labels(sample.group(3)));
            }
        }
        return ratis;
    }

    /** The samples named exactly {@code name}: their labels, and the value under the key "". */
    private static List<Map<String, String>> samples(String text, String name) {
        List<Map<String, String>> found = new java.util.ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (!line.startsWith("#") && sample.matches() && sample.group(1).equals(name)) {
                Map<String, String> labels = labels(sample.group(3));
                labels.put("", sample.group(4));
                found.add(labels);
            }
        }
        return found;
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new HashMap<>();
        if (text != null) {
            Matcher label = LABEL.matcher(text);
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
        }
        return labels;
    }
}
