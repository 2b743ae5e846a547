package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.duro.consensus.LogContext;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The node and partition that a real node's lines carry, in this JVM and in a process of its own. */
class NodeLogLinesTest {
    @TempDir
    Path data;

    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private Logger duro;

    @BeforeEach
    void listen() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        duro = context.getLogger("dev.duro");
        events.setContext(context);
        events.start();
        duro.addAppender(events);
    }

    @AfterEach
    void stopListening() {
        duro.detachAppender(events);
        events.stop();
    }

    @Test
    void aNodeInThisJvmLogsWithItsNodeAndTheStateMachineWithItsPartition() throws IOException {
        try (TestCluster cluster =
                TestCluster.builder(data).nodes(1).partitions(2).replication(1).start()) {
            String node = cluster.nodeIds().get(0);
            assertNull(MDC.get(LogContext.NODE), "starting a node leaves the caller's logging context as it was");

            ILoggingEvent serving = Await.until("the node says it serves clients", () -> first("serving clients on")
                    .map(Await.Poll::done)
                    .orElseGet(() -> Await.Poll.notYet("not yet logged")));
            assertEquals(node, serving.getMDCPropertyMap().get(LogContext.NODE));
            assertNull(serving.getMDCPropertyMap().get(LogContext.PARTITION));

            // Each partition's leader says so once it applied the log, on Ratis's applier thread.
            Set<String> partitions = Await.until("both partitions' leaders are ready", () -> {
                Set<String> seen = new TreeSet<>();
                for (ILoggingEvent event : logged("it is the designated voter")) {
                    Map<String, String> context = event.getMDCPropertyMap();
                    assertEquals(node, context.get(LogContext.NODE), event.getFormattedMessage());
                    assertTrue(
                            event.getFormattedMessage().startsWith("partition " + context.get(LogContext.PARTITION)),
                            "the partition in the context is the one the line is about: " + context + " "
                                    + event.getFormattedMessage());
                    assertTrue(event.getThreadName().startsWith(node + "@"), event.getThreadName());
                    seen.add(context.get(LogContext.PARTITION));
                }
                return seen.size() == 2 ? Await.Poll.done(seen) : Await.Poll.notYet("seen " + seen);
            });
            assertEquals(Set.of("0", "1"), partitions);
        }
    }

    @Test
    void aNodeProcessWithLogFormatJsonWritesOnlyJsonObjectsWithItsNode() throws IOException {
        ObjectMapper json = new ObjectMapper();
        try (TestCluster cluster = TestCluster.builder(data)
                .nodes(1)
                .partitions(2)
                .replication(1)
                .flavour(TestCluster.Flavour.PROCESSES)
                .label("json-log")
                .set("log.format", "json")
                .start()) {
            String node = cluster.nodeIds().get(0);
            List<JsonNode> lines = Await.until("both partitions' leaders are ready", () -> {
                List<JsonNode> parsed = new ArrayList<>();
                for (String line : cluster.log(node).lines().toList()) {
                    try {
                        parsed.add(json.readTree(line));
                    } catch (IOException e) {
                        throw new AssertionError("not a JSON object: " + line, e);
                    }
                }
                long ready = parsed.stream()
                        .filter(l -> l.get("message").asText().contains("designated voter"))
                        .count();
                return ready == 2 ? Await.Poll.done(parsed) : Await.Poll.notYet(ready + " of 2 ready");
            });
            for (JsonNode line : lines) {
                assertEquals(node, line.get("node").asText(), "every line names the node: " + line);
                OffsetDateTime.parse(line.get("timestamp").asText());
                assertFalse(line.get("level").asText().isEmpty());
            }
            assertTrue(
                    lines.stream().anyMatch(l -> l.get("message").asText().contains(" ready: ")),
                    "the ready line is a JSON line too, with the words tests wait for");
            assertTrue(
                    lines.stream()
                            .filter(l -> l.get("message").asText().contains("designated voter"))
                            .allMatch(l -> l.get("partition").isIntegralNumber()),
                    "the state machine's lines carry their partition");
        }
    }

    private List<ILoggingEvent> logged(String words) {
        List<ILoggingEvent> copy;
        synchronized (events) { // the appender appends under its own lock
            copy = new ArrayList<>(events.list);
        }
        return copy.stream()
                .filter(e -> e.getFormattedMessage().contains(words))
                .toList();
    }

    private java.util.Optional<ILoggingEvent> first(String words) {
        return logged(words).stream().findFirst();
    }
}
