package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's operator endpoint (README, "Metrics and health") on a real node, over real HTTP. */
class NodeHttpTest {
    @TempDir
    Path data;

    private TestCluster cluster;

    @BeforeEach
    void start() throws IOException {
        cluster = TestCluster.builder(data)
                .nodes(1)
                .partitions(2)
                .replication(1)
                .set("server.http-port", "0")
                .start();
    }

    @AfterEach
    void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void healthReadinessAndMetricsAnswerOverHttp() throws Exception {
        String node = cluster.nodeIds().get(0);
        int port = cluster.server(node).httpPort();
        assertTrue(port > 0, "server.http-port=0 picks a free port: " + port);
        String base = "http://127.0.0.1:" + port;

        assertEquals(200, Http.get(base + "/health").statusCode());
        Await.until("the node is ready", () -> {
            HttpResponse<String> ready = Http.get(base + "/ready");
            return ready.statusCode() == 200
                    ? Await.Poll.done(true)
                    : Await.Poll.notYet(ready.statusCode() + ": " + ready.body());
        });

        try (DuroClient client = cluster.newClient()) {
            for (int i = 0; i < 5; i++) {
                int n = i;
                client.transact(tx -> {
                    tx.put("k" + n, "v" + n);
                    return null;
                });
            }
            client.readOnly(ro -> ro.get("k0"));
        }

        HttpResponse<String> metrics = Http.get(base + "/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        String text = metrics.body();
        assertTrue(
                sum(text, "duro_transactions_total\\{[^}]*class=\"local\"[^}]*outcome=\"committed\"[^}]*\\}") >= 5,
                "five local commits counted:\n" + Http.grep(text, "duro_transactions_total"));
        assertEquals(
                2,
                sum(text, "duro_raft_leader\\{[^}]*\\}"),
                "this node leads both partitions:\n" + Http.grep(text, "duro_raft"));
        assertTrue(sum(text, "duro_replica_snapshot_counter\\{[^}]*\\}") >= 5, "SC counts the commits");
        assertTrue(sum(text, "duro_commit_seconds_count\\{[^}]*\\}") >= 5, "commits are timed");
        assertTrue(sum(text, "duro_log_commands_total\\{[^}]*\\}") >= 5, "group commit is counted");
        assertTrue(text.contains("jvm_memory_used_bytes"), "JVM metrics are there");
        String headWait = "duro_replica_head_wait_seconds\\{[^}]*\\}";
        assertEquals(2, samples(text, headWait), "head wait per replica:\n" + Http.grep(text, "head_wait"));
        assertEquals(0.0, sum(text, headWait), "nothing waits at a queue's head:\n" + Http.grep(text, "head_wait"));
        assertEquals(
                2, samples(text, "duro_cut_lag\\{[^}]*\\}"), "cut lag per partition:\n" + Http.grep(text, "cut_lag"));

        HttpResponse<String> post = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(base + "/health"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals(404, Http.get(base + "/nothing").statusCode());
    }

    @Test
    void aNodeWhoseConsensusHasNotStartedIsNotReady() {
        assertEquals("starting\n", NodeHttp.notReady(null));
    }

    /** The sum of the samples of every series whose name and labels match {@code series}. */
    private static int samples(String text, String series) {
        return (int) Pattern.compile("(?m)^" + series + " \\S+$")
                .matcher(text)
                .results()
                .count();
    }

    private static double sum(String text, String series) {
        Matcher samples = Pattern.compile("(?m)^" + series + " (\\S+)$").matcher(text);
        double total = 0;
        while (samples.find()) {
            total += Double.parseDouble(samples.group(1));
        }
        return total;
    }
}
