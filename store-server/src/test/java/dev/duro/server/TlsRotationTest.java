package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.client.UnavailableException;
import dev.duro.server.tls.CertsCommand;
import dev.duro.server.tls.TlsMaterial;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificates of a TLS cluster of three node processes change under load (docs/security.md, "Rotation"): new
 * certificates from the same CA, each node restarted in turn, keep the cluster serving with nothing lost; a node
 * restarted with an expired certificate is refused by clients and peers, and serves again once given a valid one.
 * Snapshots every 50 entries make restarted nodes catch up through snapshot fetches, over TLS too.
 */
class TlsRotationTest {
    @TempDir
    Path data;

    private TestCluster cluster;
    private DuroClient client;
    private ClusterFaults faults;

    @BeforeEach
    void startCluster(TestInfo test) throws IOException {
        cluster = TestCluster.builder(data)
                .label(getClass().getSimpleName() + "-"
                        + test.getTestMethod().orElseThrow().getName())
                .nodes(3)
                .partitions(2)
                .replication(3)
                .flavour(TestCluster.Flavour.PROCESSES)
                .tls()
                .set("raft.snapshot-every-entries", "50")
                .start();
        client = cluster.newClient();
        faults = new ClusterFaults(cluster, client);
    }

    @AfterEach
    void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void issue(List<String> nodes, Instant notBefore, Instant notAfter) throws IOException {
        CertsCommand.write(cluster.tlsDirectory(), nodes, List.of(), notBefore, notAfter, TlsClusterTest.quiet());
    }

    /** The certificate {@code node} presents now, as a client sees it. */
    private X509Certificate presented(String node) throws IOException {
        Path tls = cluster.tlsDirectory();
        ServerConfig.HostPort address = cluster.clientAddress(node);
        try (SSLSocket socket = (SSLSocket) TestTls.trustOnly(tls.resolve(CertsCommand.CA_FILE))
                .getSocketFactory()
                .createSocket(address.host(), address.port())) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    private X509Certificate onDisk(String node) {
        Path tls = cluster.tlsDirectory();
        return TlsMaterial.read(
                        tls.resolve(CertsCommand.CA_FILE), tls.resolve(node + ".pem"), tls.resolve(node + "-key.pem"))
                .certificate();
    }

    @Test
    void newCertificatesFromTheSameCaRolledOutOneNodeAtATimeKeepTheClusterServing() throws Exception {
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "rotation-", 3, true)) {
            writers.awaitMoreCommits(30, "before the rotation");
            Instant now = Instant.now();
            issue(cluster.nodeIds(), now.minusSeconds(60), now.plus(Duration.ofDays(2)));
            for (String node : cluster.nodeIds()) {
                cluster.stop(node);
                writers.awaitMoreCommits(10, "with " + node + " down for its new certificate");
                cluster.start(node);
                assertEquals(
                        onDisk(node).getSerialNumber(),
                        presented(node).getSerialNumber(),
                        node + " presents its new certificate");
                writers.awaitMoreCommits(20, "after " + node + " restarted with its new certificate");
                // A rolling restart moves on once the restarted node has caught up: otherwise stopping the next node
                // leaves a partition with one replica that is current and one still fetching a snapshot.
                cluster.awaitCaughtUp(node);
            }
            writers.stop();
            faults.assertNothingLost(writers, cluster.nodeIds().get(2));
        }
    }

    @Test
    void aNodeWithAnExpiredCertificateIsRefusedByClientsAndPeersUntilItGetsAValidOne() throws Exception {
        String node = "n3";
        Instant now = Instant.now();
        cluster.stop(node);
        issue(List.of(node), now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(1)));
        int logFrom = cluster.log(node).length();
        cluster.start(node);
        assertTrue(
                cluster.startupOutput(node, logFrom).contains("has EXPIRED"), "n3 warns that its certificate expired");
        try (DuroClient onlyN3 = DuroClient.builder()
                .seeds(cluster.clientAddress(node).toString())
                .requestTimeout(Duration.ofSeconds(5))
                .tls(cluster.tlsDirectory().resolve(CertsCommand.CA_FILE))
                .build()) {
            UnavailableException refused = assertThrows(UnavailableException.class, onlyN3::refreshCluster);
            assertTrue(refused.getMessage().contains("validity check failed"), refused.getMessage());
        }
        Await.until(
                "n1 refuses its link to n3",
                () -> cluster.log("n1").contains("TLS link to n3 refused")
                        ? Await.Poll.done(true)
                        : Await.Poll.notYet("no refusal logged yet"));
        try (UniqueKeyWriters writers = new UniqueKeyWriters(client, "expired-", 2)) {
            writers.awaitMoreCommits(20, "with n3 refused");
            cluster.stop(node);
            issue(List.of(node), now.minusSeconds(60), now.plus(Duration.ofDays(1)));
            cluster.start(node);
            writers.awaitMoreCommits(20, "after n3 got a valid certificate");
            writers.stop();
            faults.assertNothingLost(writers, node);
        }
    }
}
