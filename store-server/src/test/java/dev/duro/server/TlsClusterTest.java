package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.UnavailableException;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.Vote;
import dev.duro.core.node.FrontierMessage;
import dev.duro.core.node.VoteMessage;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotFetchRequest;
import dev.duro.server.tls.CertsCommand;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A three-node cluster with TLS on every link, in this JVM (docs/security.md): it commits and reads over TLS, its
 * peer links are TLS links to the node they name, and its Raft ports take only members' certificates;
 * clients that speak plaintext, trust another CA or hold an expired certificate are refused with a clear error; and
 * peer messages from connections that are not cluster nodes (a client with or without a certificate, a certificate
 * of the same CA naming a node outside the cluster) are answered {@code FORBIDDEN} and have no effect.
 */
class TlsClusterTest {
    @TempDir
    static Path root;

    private static TestCluster cluster;

    @BeforeAll
    static void start() throws IOException {
        cluster = TestCluster.builder(root.resolve("cluster"))
                .nodes(3)
                .partitions(2)
                .replication(3)
                .tls()
                .label("tls")
                .start();
        Instant now = Instant.now();
        // An impostor: a certificate of the cluster's own CA, for a node the cluster does not have.
        CertsCommand.write(
                cluster.tlsDirectory(),
                List.of("n9"),
                List.of(),
                now.minusSeconds(300),
                now.plusSeconds(86_400),
                quiet());
        // Certificates that expired yesterday, of the same CA.
        CertsCommand.write(
                cluster.tlsDirectory(),
                List.of(),
                List.of("expired-client"),
                now.minus(Duration.ofDays(3)),
                now.minus(Duration.ofDays(1)),
                quiet());
        // Another CA altogether.
        CertsCommand.write(
                root.resolve("other-ca"),
                List.of(),
                List.of("stranger"),
                now.minusSeconds(300),
                now.plusSeconds(86_400),
                quiet());
    }

    @AfterAll
    static void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    static PrintStream quiet() {
        return new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    }

    private static Path tls(String file) {
        return cluster.tlsDirectory().resolve(file);
    }

    private static DuroClient.Builder clientOf() {
        return DuroClient.builder().seeds(cluster.seeds()).requestTimeout(Duration.ofSeconds(5));
    }

    @Test
    void aTlsClusterCommitsGlobalTransactionsAndReadsThemBack() {
        try (DuroClient client = clientOf()
                .tls(tls(CertsCommand.CA_FILE), tls("test-client.pem"), tls("test-client-key.pem"))
                .build()) {
            ClusterView view = client.refreshCluster();
            String a = TestCluster.keysOf(view, 0, "happy-a-", 1).get(0);
            String b = TestCluster.keysOf(view, 1, "happy-b-", 1).get(0);
            client.transact(tx -> {
                tx.put(a, "1");
                tx.put(b, "2");
                return null;
            });
            assertEquals("1", client.get(a));
            assertEquals("2", client.readOnly(ro -> ro.get(b)));
        }
    }

    @Test
    void everyPeerLinkIsATlsLinkToTheNodeItNames() {
        for (String node : cluster.nodeIds()) {
            for (String peer : cluster.nodeIds()) {
                if (peer.equals(node)) {
                    continue;
                }
                String subject = Await.until(node + "'s link to " + peer + " is up", () -> {
                    Channel channel = cluster.server(node).peers().liveChannel(peer);
                    SslHandler ssl = channel == null ? null : channel.pipeline().get(SslHandler.class);
                    if (ssl == null || !ssl.handshakeFuture().isSuccess()) {
                        return Await.Poll.notYet("no TLS link yet");
                    }
                    try {
                        return Await.Poll.done(
                                ssl.engine().getSession().getPeerPrincipal().getName());
                    } catch (SSLPeerUnverifiedException e) {
                        throw new AssertionError("the link to " + peer + " has no verified peer", e);
                    }
                });
                assertEquals("CN=node:" + peer, subject);
            }
        }
    }

    @Test
    void theRaftPortAcceptsAClusterNodesCertificate() throws IOException {
        SSLContext n2 = TestTls.socketContext(tls(CertsCommand.CA_FILE), tls("n2.pem"), tls("n2-key.pem"));
        try (SSLSocket socket = raftSocket("n1", n2)) {
            // gRPC's server speaks first once TLS is up: its HTTP/2 settings.
            assertTrue(socket.getInputStream().read() >= 0, "the Raft port closed on a member's certificate");
        }
    }

    @Test
    void theRaftPortRefusesACertificateOfTheSameCaNamingANodeOutsideTheCluster() throws IOException {
        SSLContext n9 = TestTls.socketContext(tls(CertsCommand.CA_FILE), tls("n9.pem"), tls("n9-key.pem"));
        try (SSLSocket socket = raftSocket("n1", n9)) {
            SSLException refused = assertThrows(
                    SSLException.class, () -> socket.getInputStream().read());
            assertTrue(refused.getMessage().contains("certificate"), refused.getMessage());
        }
    }

    @Test
    void theRaftPortRefusesAClientCertificateAndNoCertificate() throws IOException {
        SSLContext client =
                TestTls.socketContext(tls(CertsCommand.CA_FILE), tls("test-client.pem"), tls("test-client-key.pem"));
        for (SSLContext context : List.of(client, TestTls.trustOnly(tls(CertsCommand.CA_FILE)))) {
            try (SSLSocket socket = raftSocket("n1", context)) {
                assertThrows(SSLException.class, () -> socket.getInputStream().read());
            }
        }
    }

    /** A TLS socket to {@code node}'s Raft port, asking for HTTP/2 as gRPC does, its handshake done. */
    private static SSLSocket raftSocket(String node, SSLContext context) throws IOException {
        ServerConfig.HostPort raft = cluster.config(node).self().raft();
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(raft.host(), raft.port());
        socket.setSoTimeout(30_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        try {
            socket.startHandshake();
        } catch (SSLException e) {
            // TLS 1.3 may report the server's refusal here already: the read that follows fails the same way.
        }
        return socket;
    }

    @Test
    void aClientWithoutACertificateStillWorksOverTls() {
        try (DuroClient client = clientOf().tls(tls(CertsCommand.CA_FILE)).build()) {
            client.put("anonymous-key", "v");
            assertEquals("v", client.get("anonymous-key"));
        }
    }

    @Test
    void aPlaintextClientIsRefusedWithAnErrorSayingTheNodeMayRequireTls() {
        try (DuroClient client = clientOf().build()) {
            UnavailableException refused = assertThrows(UnavailableException.class, client::refreshCluster);
            assertTrue(refused.getMessage().contains("may require TLS"), refused.getMessage());
        }
    }

    @Test
    void aClientTrustingAnotherCaRefusesTheNodes() {
        try (DuroClient client = clientOf()
                .tls(root.resolve("other-ca").resolve(CertsCommand.CA_FILE))
                .build()) {
            UnavailableException refused = assertThrows(UnavailableException.class, client::refreshCluster);
            assertTrue(refused.getMessage().contains("TLS with the node failed"), refused.getMessage());
        }
    }

    @Test
    void aClientCertificateOfAnotherCaIsRefusedByTheNodes() {
        Path other = root.resolve("other-ca");
        try (DuroClient client = clientOf()
                .tls(tls(CertsCommand.CA_FILE), other.resolve("stranger.pem"), other.resolve("stranger-key.pem"))
                .build()) {
            UnavailableException refused = assertThrows(UnavailableException.class, client::refreshCluster);
            assertTrue(refused.getMessage().contains("TLS"), refused.getMessage());
        }
    }

    @Test
    void anExpiredClientCertificateIsRefusedByTheNodes() {
        try (DuroClient client = clientOf()
                .tls(tls(CertsCommand.CA_FILE), tls("expired-client.pem"), tls("expired-client-key.pem"))
                .build()) {
            UnavailableException refused = assertThrows(UnavailableException.class, client::refreshCluster);
            assertTrue(refused.getMessage().contains("TLS"), refused.getMessage());
        }
    }

    @Test
    void peerMessagesFromAClientWithACertificateAreForbidden() throws IOException {
        assertPeerMessagesForbidden(
                TestTls.socketContext(tls(CertsCommand.CA_FILE), tls("test-client.pem"), tls("test-client-key.pem")));
    }

    @Test
    void peerMessagesFromANodeCertificateOutsideTheClusterAreForbidden() throws IOException {
        assertPeerMessagesForbidden(TestTls.socketContext(tls(CertsCommand.CA_FILE), tls("n9.pem"), tls("n9-key.pem")));
    }

    @Test
    void peerMessagesFromAClientWithoutACertificateAreForbidden() throws IOException {
        assertPeerMessagesForbidden(TestTls.trustOnly(tls(CertsCommand.CA_FILE)));
    }

    /**
     * Votes, frontiers and snapshot fetches from {@code tls}'s connection are answered FORBIDDEN, and none has an
     * effect: a forged frontier moves no node's view of a partition, and a forged abort vote does not abort the
     * global transaction it names (PlaintextPeersTest shows both would, on a cluster without TLS).
     */
    private static void assertPeerMessagesForbidden(SSLContext tls) throws IOException {
        long forgedCounter = 1_000_000_000L;
        TxId tid = new TxId(0x7e57_0000L + System.nanoTime() % 1000, 1);
        Vote forgedAbort = new Vote(tid, 1, 0, AbortReason.abortRequested(1), false);
        for (String node : cluster.nodeIds()) {
            try (RawConnection connection = new RawConnection(cluster.clientAddress(node), tls)) {
                connection.send(VoteMessage.of(0, forgedAbort));
                assertForbidden(connection.receive(), "VOTE");
                connection.send(new FrontierMessage(new Frontier(0, forgedCounter, List.of())));
                assertForbidden(connection.receive(), "FRONTIER");
                connection.send(new SnapshotFetchRequest(7, 0, 0));
                ServerReply fetch = connection.receive();
                assertForbidden(fetch, "SNAPSHOT_FETCH");
                assertEquals(7, fetch.requestId());
            }
        }
        for (String node : cluster.nodeIds()) {
            long heard = cluster.server(node).frontiers().newestHeard(0);
            assertTrue(heard < forgedCounter, node + " took the forged frontier: " + heard);
        }
        try (RawConnection connection = new RawConnection(cluster.clientAddress("n1"), tls)) {
            ServerReply reply = connection.call(globalWrite(tid, "forbidden-vote-"));
            OutcomeReply outcome = assertInstanceOf(OutcomeReply.class, reply);
            assertTrue(outcome.outcome().committed(), "the forged abort vote counted: " + outcome);
        }
    }

    /** A global transaction writing one fresh key at each of partitions 0 and 1, at snapshot 0. */
    static CommitTransaction globalWrite(TxId tid, String prefix) {
        ClusterView view;
        try (DuroClient client = clientOf()
                .tls(tls(CertsCommand.CA_FILE), tls("test-client.pem"), tls("test-client-key.pem"))
                .build()) {
            view = client.refreshCluster();
        }
        String unique = prefix + tid.clientId() + "-";
        List<CommitTransaction.Participant> participants = List.of(
                participant(0, TestCluster.keysOf(view, 0, unique, 1).get(0)),
                participant(1, TestCluster.keysOf(view, 1, unique, 1).get(0)));
        return new CommitTransaction(99, tid, participants);
    }

    static CommitTransaction.Participant participant(int partition, String key) {
        return new CommitTransaction.Participant(
                partition, 0, List.of(), List.of(new Write(Bytes.utf8(key), Bytes.utf8("v"))));
    }

    private static void assertForbidden(ServerReply reply, String what) {
        ErrorReply error = assertInstanceOf(ErrorReply.class, reply, what);
        assertEquals(ErrorCode.FORBIDDEN, error.code(), what + ": " + error);
        assertTrue(error.message().contains("not a cluster node"), error.message());
    }
}
