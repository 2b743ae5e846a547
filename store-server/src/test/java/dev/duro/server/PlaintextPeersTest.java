package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.core.AbortReason;
import dev.duro.core.TxId;
import dev.duro.core.engine.Vote;
import dev.duro.core.node.FrontierMessage;
import dev.duro.core.node.VoteMessage;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.OutcomeReply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Why peers must be authenticated, shown on a cluster without TLS (docs/security.md, "Plaintext"): a forged frontier
 * and a forged abort vote from any connection take effect. TlsClusterTest sends the same messages to a TLS cluster,
 * where they are refused; this test proves its checks would catch them.
 */
class PlaintextPeersTest {
    @TempDir
    Path root;

    @Test
    void aNodeWithoutTlsWarnsInItsFirstLinesThatItsLinksArePlaintext() throws IOException {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger server = context.getLogger(DuroServer.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.setContext(context);
        events.start();
        server.addAppender(events);
        try (TestCluster cluster =
                TestCluster.builder(root).nodes(1).partitions(1).replication(1).start()) {
            ILoggingEvent first = events.list.get(0);
            assertEquals(Level.WARN, first.getLevel());
            assertTrue(
                    first.getFormattedMessage()
                            .startsWith("node n1: TLS is OFF (no tls.* settings): client, peer and"
                                    + " Raft links are plaintext and unauthenticated"),
                    first.getFormattedMessage());
            assertTrue(first.getFormattedMessage().contains("For loopback development only"));
        } finally {
            server.detachAppender(events);
            events.stop();
        }
    }

    @Test
    void withoutTlsAForgedFrontierAndAForgedAbortVoteFromAnyConnectionTakeEffect() throws IOException {
        try (TestCluster cluster = TestCluster.builder(root)
                .nodes(1)
                .partitions(2)
                .replication(1)
                .label("plaintext-peers")
                // The forged frontier makes n1 think its replica lags far behind: allow any lag, so that the commit
                // below is coordinated and shows what the forged vote does.
                .set("server.coordinator-lag-max", Integer.toString(Integer.MAX_VALUE))
                .start()) {
            long forgedCounter = 1_000_000_000L;
            TxId tid = new TxId(0x0bad_0000L, 1);
            ClusterView view;
            try (DuroClient client = cluster.newClient()) {
                view = client.refreshCluster();
            }
            try (RawConnection connection = new RawConnection(cluster.clientAddress("n1"))) {
                connection.send(VoteMessage.of(0, new Vote(tid, 1, 0, AbortReason.abortRequested(1), false)));
                connection.send(new FrontierMessage(new Frontier(0, forgedCounter, List.of())));
                Await.until(
                        "the forged frontier arrives",
                        () -> cluster.server("n1").frontiers().newestHeard(0) == forgedCounter
                                ? Await.Poll.done(true)
                                : Await.Poll.notYet("not yet"));
                CommitTransaction commit = new CommitTransaction(
                        5,
                        tid,
                        List.of(
                                TlsClusterTest.participant(
                                        0,
                                        TestCluster.keysOf(view, 0, "forged-", 1)
                                                .get(0)),
                                TlsClusterTest.participant(
                                        1,
                                        TestCluster.keysOf(view, 1, "forged-", 1)
                                                .get(0))));
                OutcomeReply outcome = assertInstanceOf(OutcomeReply.class, connection.call(commit));
                assertFalse(outcome.outcome().committed(), "the forged abort vote was ignored: " + outcome);
                assertEquals(1, outcome.outcome().reason().partition(), outcome.toString());
            }
        }
    }
}
