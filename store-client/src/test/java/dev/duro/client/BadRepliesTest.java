package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A node that sends frames the client cannot read: the client says so, without a storm, and keeps the connection. */
class BadRepliesTest {
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private Logger connectionLog;

    @BeforeEach
    void listen() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        connectionLog = context.getLogger(NodeConnection.class);
        events.setContext(context);
        events.start();
        connectionLog.addAppender(events);
    }

    @AfterEach
    void stopListening() {
        connectionLog.detachAppender(events);
        events.stop();
    }

    @Test
    void undecodableRepliesAreWarnedAboutOnceAndTheConnectionKeepsServing() throws Exception {
        try (FakeCluster cluster = new FakeCluster(1);
                DuroClient client = cluster.client(0)) {
            assertNull(read(client, "before"));
            int connections = cluster.connectionsAccepted();

            cluster.thenReads(FakeCluster.garbageThen(500, FakeCluster.absent()));
            assertNull(read(client, "after garbage"), "the real reply after the garbage is read");
            assertNull(read(client, "later"));

            assertEquals(connections, cluster.connectionsAccepted(), "bad frames do not break the connection");
            List<ILoggingEvent> warnings = warnings();
            assertEquals(1, warnings.size(), "one warning for 500 bad frames, not one each: " + warnings);
            String warning = warnings.get(0).getFormattedMessage();
            assertTrue(warning.contains(cluster.addresses().get(0).toString()), "names the node's address: " + warning);
            assertTrue(warning.contains("undecodable reply"), "says what was wrong: " + warning);
            assertTrue(warning.contains("wire protocol"), "and why it could not be read: " + warning);
        }
    }

    /** Reads a key in a transaction of its own (the fake cluster serves single-key reads and commits). */
    private static String read(DuroClient client, String key) {
        return client.transact(tx -> tx.get(key));
    }

    private List<ILoggingEvent> warnings() {
        List<ILoggingEvent> copy;
        synchronized (events) { // the appender appends under its own lock
            copy = new ArrayList<>(events.list);
        }
        return copy.stream().filter(e -> e.getLevel() == Level.WARN).toList();
    }
}
