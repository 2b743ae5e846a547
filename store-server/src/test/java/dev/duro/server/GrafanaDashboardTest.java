package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.duro.client.DuroClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard (docker/grafana/dashboards/duro.json) is valid JSON whose every panel queries Prometheus,
 * and every series its queries name is one a real node serves at {@code /metrics}: a renamed metric or a misspelt
 * query fails here, naming the series, instead of drawing an empty panel.
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("..", "docker", "grafana", "dashboards", "duro.json");
    private static final String DATA_SOURCE = "${datasource}";

    /** PromQL words that are not series names: keywords, and aggregations written without parentheses. */
    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "inf",
            "nan");

    private static final Pattern NAME = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    @TempDir
    Path data;

    @Test
    void everyPanelQueriesPrometheusThroughTheDataSourceVariable() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile()); // strict JSON: fails on any slip
        assertFalse(dashboard.path("uid").asText().isBlank(), "the dashboard has a uid, so links to it last");
        assertFalse(dashboard.path("title").asText().isBlank(), "the dashboard has a title");

        JsonNode variable = variable(dashboard, "datasource");
        assertEquals("datasource", variable.path("type").asText(), "the data source is chosen by a variable");
        assertEquals("prometheus", variable.path("query").asText(), "among Prometheus data sources");

        List<JsonNode> panels = panels(dashboard);
        assertTrue(panels.size() >= 10, "the dashboard has its panels: " + panels.size());
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : panels) {
            String title = panel.path("title").asText();
            assertFalse(title.isBlank(), "every panel has a title: " + panel);
            assertTrue(ids.add(panel.path("id").asInt(-1)), title + " has an id of its own");
            assertTrue(panel.path("gridPos").has("w"), title + " has a place on the grid");
            assertDataSource(panel.path("datasource"), title);
            JsonNode targets = panel.path("targets");
            assertTrue(targets.isArray() && !targets.isEmpty(), title + " has a query");
            Set<String> refIds = new HashSet<>();
            for (JsonNode target : targets) {
                assertFalse(target.path("expr").asText().isBlank(), title + " has a PromQL expression: " + target);
                assertTrue(refIds.add(target.path("refId").asText()), title + "'s queries have distinct refIds");
                if (target.has("datasource")) {
                    assertDataSource(target.path("datasource"), title);
                }
            }
        }
        for (JsonNode query : dashboard.path("templating").path("list")) {
            if (query.path("type").asText().equals("query")) {
                assertDataSource(
                        query.path("datasource"),
                        "variable " + query.path("name").asText());
            }
        }
    }

    @Test
    void everySeriesTheQueriesNameIsServedByARealNode() throws Exception {
        Map<String, Set<String>> used = seriesUsed(new ObjectMapper().readTree(DASHBOARD.toFile()));
        assertFalse(used.isEmpty(), "the dashboard's queries name series");

        try (TestCluster cluster = TestCluster.builder(data)
                .nodes(1)
                .partitions(2)
                .replication(1)
                .set("server.http-port", "0")
                .start()) {
            String metrics = "http://127.0.0.1:"
                    + cluster.server(cluster.nodeIds().get(0)).httpPort() + "/metrics";
            // What makes the series that appear only once something happened: commits, reads, cuts, a GC.
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
            System.gc();
            Await.until("the node serves every series the dashboard queries", Duration.ofSeconds(20), () -> {
                Set<String> served = seriesServed(Http.body(metrics));
                Map<String, Set<String>> missing = new TreeMap<>(used);
                missing.keySet().removeAll(served);
                return missing.isEmpty()
                        ? Await.Poll.done(true)
                        : Await.Poll.notYet("not served, with the panels that query them: " + missing);
            });
        }
    }

    @Test
    void seriesNamesAreFoundInsideFunctionsAggregationsAndArithmetic() {
        assertEquals(
                Set.of("duro_commit_seconds_bucket"),
                seriesNames(
                        "histogram_quantile(0.99, sum by (le, class) "
                                + "(rate(duro_commit_seconds_bucket{node=~\"$node\", outcome=\"committed\"}[$__rate_interval])))"));
        assertEquals(
                Set.of("duro_log_commands_total", "duro_log_entries_total"),
                seriesNames("sum by (partition) (rate(duro_log_commands_total[5m])) / on (partition) "
                        + "sum without (node) (rate(duro_log_entries_total{reason=\"a b\"}[5m]))"));
        assertEquals(Set.of("up"), seriesNames("max(up) > bool 0 offset 1m"));
    }

    // ---- reading the dashboard ----

    /** The panels that draw something: rows' own panels included, rows themselves left out. */
    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                panel.path("panels").forEach(panels::add); // a collapsed row holds its panels
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    private static JsonNode variable(JsonNode dashboard, String name) {
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("the dashboard has no variable " + name);
    }

    private static void assertDataSource(JsonNode source, String what) {
        assertEquals("prometheus", source.path("type").asText(), what + " queries Prometheus");
        assertEquals(DATA_SOURCE, source.path("uid").asText(), what + " queries the chosen data source");
    }

    /** Every series name the dashboard's queries use, with the titles of the panels (or variables) using it. */
    private static Map<String, Set<String>> seriesUsed(JsonNode dashboard) {
        Map<String, Set<String>> used = new TreeMap<>();
        for (JsonNode panel : panels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                for (String name : seriesNames(target.path("expr").asText())) {
                    used.computeIfAbsent(name, n -> new TreeSet<>())
                            .add(panel.path("title").asText());
                }
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            // label_values(series, label): the series is the first argument.
            Matcher values = Pattern.compile("label_values\\(\\s*(" + NAME.pattern() + ")")
                    .matcher(variable.path("query")
                            .path("query")
                            .asText(variable.path("query").asText()));
            if (values.find()) {
                used.computeIfAbsent(values.group(1), n -> new TreeSet<>())
                        .add("variable " + variable.path("name").asText());
            }
        }
        return used;
    }

    /**
     * The series names in a PromQL expression: the names left once strings, label matchers, ranges, grouping
     * clauses and Grafana's variables are taken out, that are neither functions (followed by a parenthesis) nor
     * keywords.
     */
    static Set<String> seriesNames(String expr) {
        String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\$\\{?\\w+}?", " ");
        Set<String> names = new TreeSet<>();
        Matcher name = NAME.matcher(bare);
        while (name.find()) {
            String word = name.group();
            String after = bare.substring(name.end()).stripLeading();
            boolean partOfNumber = name.start() > 0 && Character.isDigit(bare.charAt(name.start() - 1));
            if (!after.startsWith("(") && !KEYWORDS.contains(word.toLowerCase(Locale.ROOT)) && !partOfNumber) {
                names.add(word);
            }
        }
        return names;
    }

    // ---- what a real node serves ----

    /** The series names in Prometheus's text format: each sample line's name, before its labels or value. */
    private static Set<String> seriesServed(String text) {
        Set<String> served = new TreeSet<>();
        for (String line : text.split("\n")) {
            Matcher name = NAME.matcher(line);
            if (!line.startsWith("#") && name.lookingAt()) {
                served.add(name.group());
            }
        }
        return served;
    }
}
