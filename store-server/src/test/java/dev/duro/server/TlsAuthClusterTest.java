package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.PermissionDeniedException;
import dev.duro.core.Bytes;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.server.tls.CertsCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS and auth together (docs/security.md, docs/auth.md): a client certificate's common name is the connection's
 * user, with the grants the cluster's auth record gives that name, and no password; a TLS client without a
 * certificate or password is unauthenticated. A node that holds no replica of the record's partition reads the record
 * from one that does over a TLS link that proves it is a cluster node, and enforces the same rules.
 */
class TlsAuthClusterTest {
    @TempDir
    Path data;

    private TestCluster cluster;
    private final List<DuroClient> clients = new ArrayList<>();

    @BeforeEach
    void startCluster() throws IOException {
        cluster = TestCluster.builder(data)
                .label(getClass().getSimpleName())
                .nodes(3)
                .partitions(2)
                .replication(2)
                .tls()
                // n1 holds both partitions, so it knows every leader (the readiness check asks it first).
                .set("partition.0.replicas", "n1,n2")
                .set("partition.1.replicas", "n1,n3")
                .set("auth.refresh-millis", "200")
                .set("auth.password-iterations", "10000")
                .start();
        Instant now = Instant.now();
        CertsCommand.write(
                cluster.tlsDirectory(),
                List.of(),
                List.of("carol"),
                now.minusSeconds(300),
                now.plusSeconds(86_400),
                new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterEach
    void stopCluster() throws IOException {
        for (DuroClient client : clients) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A TLS client on one node only, presenting {@code certificate}'s certificate, or none for null. */
    private DuroClient clientOf(String node, String certificate) {
        Path tls = cluster.tlsDirectory();
        DuroClient.Builder builder = DuroClient.builder()
                .seeds(cluster.clientAddress(node).toString())
                .requestTimeout(Duration.ofSeconds(10));
        if (certificate == null) {
            builder.tls(tls.resolve(CertsCommand.CA_FILE));
        } else {
            builder.tls(
                    tls.resolve(CertsCommand.CA_FILE),
                    tls.resolve(certificate + ".pem"),
                    tls.resolve(certificate + "-key.pem"));
        }
        DuroClient client = builder.build();
        clients.add(client);
        return client;
    }

    @Test
    void aClientCertificateIsItsUserAtEveryNodeIncludingOneWithoutTheRecordsPartition() {
        DuroClient admin = cluster.newClient();
        clients.add(admin);
        int recordPartition = admin.cluster().partitionOf(AdminRequest.AUTH_RECORD_KEY);
        String outsider = cluster.nodeIds().stream()
                .filter(node -> !cluster.replicasOf(recordPartition).contains(node))
                .findFirst()
                .orElseThrow();
        admin.admin("user-add", List.of("root"), "rootpw".toCharArray());
        admin.admin("user-grant-role", List.of("root", "root"), null);
        admin.admin("role-add", List.of("carol-writer"), null);
        admin.admin("role-grant", List.of("carol-writer", "readwrite", "carol/"), null);
        admin.admin("user-add", List.of("carol"), null); // no password: her certificate proves who she is
        admin.admin("user-grant-role", List.of("carol", "carol-writer"), null);
        admin.admin("auth-enable", List.of(), null);

        // Every node enforces it within its refresh period; the outsider reads the record from another node, over
        // TLS. A request answered UNAUTHENTICATED by a node's own endpoint shows that node has the new record.
        SSLContext anonymousTls = TestTls.trustOnly(cluster.tlsDirectory().resolve(CertsCommand.CA_FILE));
        for (String node : cluster.nodeIds()) {
            Await.until(node + " enforces auth", () -> {
                try (RawConnection connection = new RawConnection(cluster.clientAddress(node), anonymousTls)) {
                    ServerReply reply =
                            connection.call(new ReadRequest(1, Bytes.utf8("carol/probe"), ReadRequest.LATEST, 0));
                    return reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHENTICATED
                            ? Await.Poll.done(error)
                            : Await.Poll.notYet(node + " answered " + reply);
                } catch (IOException e) {
                    return Await.Poll.notYet(node + ": " + e);
                }
            });
        }

        DuroClient carol = clientOf(outsider, "carol");
        carol.put("carol/x", "1");
        assertEquals("1", carol.get("carol/x"), "served by a node that read the record from a replica");
        PermissionDeniedException denied =
                assertThrows(PermissionDeniedException.class, () -> carol.put("other/x", "1"));
        assertTrue(denied.getMessage().contains("'carol'"), "names the principal: " + denied.getMessage());
        assertTrue(denied.getMessage().contains("other/x"), "names the key: " + denied.getMessage());

        ClusterView view = carol.cluster();
        assertEquals(2, view.partitionCount(), "an authenticated principal sees the cluster's layout");
        DuroClient testClient = clientOf(outsider, TestCluster.TLS_CLIENT); // a certificate the record does not know
        PermissionDeniedException stranger =
                assertThrows(PermissionDeniedException.class, () -> testClient.get("carol/x"));
        assertTrue(stranger.getMessage().contains(TestCluster.TLS_CLIENT), stranger.getMessage());
    }
}
