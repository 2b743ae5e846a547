package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.duro.consensus.LogContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The node's real logback.xml, in both formats: each configuration is loaded into a logger context of the test's
 * own (the process's logging is left alone) and its console appender writes into a buffer.
 */
class LogFormatTest {
    /** Time with milliseconds and offset, level, node, partition, [thread], logger - message. */
    private static final Pattern TEXT_LINE = Pattern.compile(
            "(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(?:Z|[+-]\\d\\d:\\d\\d)) (\\S+) +(\\S+) (\\S+) \\[([^]]+)] (\\S+) - (.*)");

    private final ObjectMapper json = new ObjectMapper();
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private LoggerContext context;

    @AfterEach
    void stop() {
        MDC.remove(LogContext.NODE);
        MDC.remove(LogContext.PARTITION);
        if (context != null) {
            context.stop();
        }
    }

    @Test
    void aTextLineCarriesItsTimeLevelNodePartitionThreadLoggerAndMessage() {
        Logger log = configure("text", null).getLogger("dev.duro.server.Example");
        MDC.put(LogContext.NODE, "n7");
        MDC.put(LogContext.PARTITION, "3");
        log.info("partition {} restored from snapshot", 3);

        Matcher line = onlyTextLine();
        OffsetDateTime logged = OffsetDateTime.parse(line.group(1));
        assertTrue(
                Math.abs(logged.toInstant().toEpochMilli() - System.currentTimeMillis()) < 60_000,
                "the time is now: " + logged);
        assertEquals("INFO", line.group(2));
        assertEquals("n7", line.group(3));
        assertEquals("p3", line.group(4));
        assertEquals(Thread.currentThread().getName(), line.group(5));
        assertEquals("dev.duro.server.Example", line.group(6));
        assertEquals("partition 3 restored from snapshot", line.group(7));
    }

    @Test
    void aTextLineAboutNoPartitionShowsTheProcesssNodeAndADash() {
        Logger log = configure("text", "n5").getLogger("dev.duro.server.Example");
        log.warn("no one partition");

        Matcher line = onlyTextLine();
        assertEquals("WARN", line.group(2));
        assertEquals("n5", line.group(3), "the process's node (duro.node) stands in for a thread's own");
        assertEquals("-", line.group(4));
    }

    @Test
    void aTextLineWithNoNodeAtAllShowsADash() {
        configure("text", null).getLogger("dev.duro.server.Example").info("anyone's");

        Matcher line = onlyTextLine();
        assertEquals("-", line.group(3));
        assertEquals("-", line.group(4));
    }

    @Test
    void aJsonLineIsOneObjectWithEveryField() throws IOException {
        Logger log = configure("json", "n5").getLogger("dev.duro.consensus.Example");
        MDC.put(LogContext.NODE, "n2");
        MDC.put(LogContext.PARTITION, "11");
        log.info("a \"quoted\" message\nover two lines");

        List<String> lines = lines();
        assertEquals(1, lines.size(), "one line per event, a newline in the message escaped:\n" + output);
        JsonNode event = json.readTree(lines.get(0));
        OffsetDateTime.parse(event.get("timestamp").asText());
        assertTrue(
                event.get("timestamp").asText().matches(".*T\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d)"),
                "milliseconds and offset: " + event.get("timestamp"));
        assertEquals("INFO", event.get("level").asText());
        assertEquals("dev.duro.consensus.Example", event.get("logger").asText());
        assertEquals(Thread.currentThread().getName(), event.get("thread").asText());
        assertEquals("n2", event.get("node").asText(), "the thread's node wins over the process's");
        assertTrue(event.get("partition").isIntegralNumber(), "the partition is a number: " + event);
        assertEquals(11, event.get("partition").asInt());
        assertEquals(
                "a \"quoted\" message\nover two lines", event.get("message").asText());
        assertFalse(event.has("stack_trace"), "no stack trace without an exception");
    }

    @Test
    void aJsonLineWithAnExceptionCarriesItsStackTrace() throws IOException {
        Logger log = configure("json", "n5").getLogger("dev.duro.consensus.Example");
        log.error("snapshot failed", new IOException("disk full"));

        JsonNode event = json.readTree(lines().get(0));
        assertEquals("ERROR", event.get("level").asText());
        assertEquals("n5", event.get("node").asText(), "the process's node when the thread has none");
        assertFalse(event.has("partition"), "no partition field when there is no partition: " + event);
        String trace = event.get("stack_trace").asText();
        assertTrue(trace.startsWith("java.io.IOException: disk full"), trace);
        assertTrue(trace.contains("at dev.duro.server.LogFormatTest."), trace);
    }

    @Test
    void duroLogsAtInfoWhileRatisNettyAndGrpcOnlyWarn() {
        LoggerContext configured = configure("text", null);
        assertTrue(
                configured.getLogger("dev.duro.consensus.PartitionStateMachine").isInfoEnabled());
        assertFalse(configured.getLogger("dev.duro.server.DuroServer").isDebugEnabled());
        assertFalse(configured.getLogger("org.apache.ratis.server.RaftServer").isInfoEnabled());
        assertTrue(configured.getLogger("org.apache.ratis.server.RaftServer").isWarnEnabled());
        assertFalse(configured.getLogger("io.netty.channel.nio.NioEventLoop").isInfoEnabled());
        assertFalse(configured
                .getLogger("org.apache.ratis.client.impl.OrderedAsync")
                .isErrorEnabled());
        // gRPC inside Ratis logs through java.util.logging: the levels reach it, so its INFO chatter is not even
        // formatted before SLF4JBridgeHandler would drop it.
        java.util.logging.Logger grpc = java.util.logging.Logger.getLogger("org.apache.ratis.thirdparty.io.grpc.netty");
        assertFalse(grpc.isLoggable(Level.INFO));
        assertTrue(grpc.isLoggable(Level.WARNING));
    }

    @Test
    void linesGoToStandardErrorSoThatStandardOutputStaysForResults() {
        LoggerContext configured = configure("text", null);
        ConsoleAppender<?> console = (ConsoleAppender<?>)
                configured.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("console");
        assertEquals("System.err", console.getTarget());
    }

    /** Loads logback.xml as a node would with {@code duro.log.format=format} (and {@code duro.node=node}). */
    private LoggerContext configure(String format, String node) {
        context = new LoggerContext();
        context.setMDCAdapter(MDC.getMDCAdapter());
        context.putProperty(ServerMain.LOG_FORMAT_PROPERTY, format);
        if (node != null) {
            context.putProperty(ServerMain.NODE_PROPERTY, node);
        }
        URL configuration = LogFormatTest.class.getResource("/logback.xml");
        assertTrue(
                configuration != null && configuration.getPath().contains("/store-server/"),
                "the node's own logback.xml: " + configuration);
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        try {
            configurator.doConfigure(configuration);
        } catch (JoranException e) {
            throw new AssertionError("logback.xml does not load", e);
        }
        assertTrue(
                context.getStatusManager().getCopyOfStatusList().stream().allMatch(s -> s.getLevel() < 1),
                "logback.xml loads without warnings: "
                        + context.getStatusManager().getCopyOfStatusList());
        ConsoleAppender<?> console = (ConsoleAppender<?>)
                context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("console");
        console.setOutputStream(output);
        return context;
    }

    private Matcher onlyTextLine() {
        List<String> lines = lines();
        assertEquals(1, lines.size(), output::toString);
        Matcher line = TEXT_LINE.matcher(lines.get(0));
        assertTrue(line.matches(), "a line in the text format: " + lines.get(0));
        return line;
    }

    private List<String> lines() {
        try {
            output.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return output.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
