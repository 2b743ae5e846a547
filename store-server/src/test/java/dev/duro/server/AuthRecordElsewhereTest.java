package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.AuthenticateRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that holds no replica of the auth record's partition still enforces the cluster's rules: it reads the
 * record from a node that does ({@code auth-table}), and refuses admin requests, which the client then sends to a
 * replica of that partition (docs/auth.md, "Where the rules live").
 */
class AuthRecordElsewhereTest {
    @TempDir
    Path data;

    private TestCluster cluster;
    private final AtomicLong requestIds = new AtomicLong();

    @BeforeEach
    void startCluster() throws IOException {
        cluster = TestCluster.builder(data)
                .label(getClass().getSimpleName())
                .nodes(3)
                .partitions(2)
                .replication(2)
                // n1 holds both partitions, so it knows every leader (the readiness check asks it first).
                .set("partition.0.replicas", "n1,n2")
                .set("partition.1.replicas", "n1,n3")
                .set("auth.refresh-millis", "200")
                .set("auth.password-iterations", "10000")
                .start();
    }

    @AfterEach
    void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aNodeWithoutTheRecordsPartitionEnforcesTheRulesItReadsFromAReplica() throws IOException {
        DuroClient admin = cluster.newClient();
        ClusterView view = admin.cluster();
        int recordPartition = view.partitionOf(AdminRequest.AUTH_RECORD_KEY);
        String outsider = cluster.nodeIds().stream()
                .filter(node -> !cluster.replicasOf(recordPartition).contains(node))
                .findFirst()
                .orElseThrow();
        int otherPartition = 1 - recordPartition;
        assertFalse(cluster.replicasOf(recordPartition).contains(outsider));
        String key = TestCluster.keysOf(view, otherPartition, "app/", 1).get(0);

        // Admin requests go through a replica of the record's partition; the outsider refuses them itself.
        admin.admin("user-add", List.of("root"), "rootpw".toCharArray());
        admin.admin("user-grant-role", List.of("root", "root"), null);
        admin.admin("role-add", List.of("reader"), null);
        admin.admin("role-grant", List.of("reader", "read", "app/"), null);
        admin.admin("user-add", List.of("bob"), "bobpw".toCharArray());
        admin.admin("user-grant-role", List.of("bob", "reader"), null);
        try (RawConnection connection = new RawConnection(cluster.clientAddress(outsider))) {
            ErrorReply refused = assertInstanceOf(
                    ErrorReply.class,
                    connection.call(new AdminRequest(requestIds.incrementAndGet(), "role-add", List.of("x"), null)));
            assertEquals(ErrorCode.UNKNOWN_PARTITION, refused.code());
        }
        admin.admin("auth-enable", List.of(), null);

        Await.until(outsider + " refuses an unauthenticated read", () -> {
            ServerReply reply = onOutsider(outsider, null, read(key));
            return reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHENTICATED
                    ? Await.Poll.done(error)
                    : Await.Poll.notYet(outsider + " answered " + reply);
        });
        assertInstanceOf(ReadReply.class, onOutsider(outsider, "bobpw", read(key)));
        ServerReply write = onOutsider(
                outsider,
                "bobpw",
                new CommitTransaction(
                        requestIds.incrementAndGet(),
                        new TxId(0x7e57, requestIds.incrementAndGet()),
                        List.of(new CommitTransaction.Participant(
                                otherPartition, 0, List.of(), List.of(Write.put(Bytes.utf8(key), Bytes.utf8("v")))))));
        assertEquals(
                ErrorCode.PERMISSION_DENIED,
                assertInstanceOf(ErrorReply.class, write).code());
        ServerReply wrongPassword = onOutsider(outsider, "not-bobs", read(key));
        assertEquals(
                ErrorCode.UNAUTHENTICATED,
                assertInstanceOf(ErrorReply.class, wrongPassword).code());
    }

    private ReadRequest read(String key) {
        return new ReadRequest(requestIds.incrementAndGet(), Bytes.utf8(key), ReadRequest.LATEST, 0);
    }

    /** {@code request} on a new connection to {@code node}, authenticated as bob first unless password is null. */
    private ServerReply onOutsider(String node, String password, dev.duro.core.wire.ClientRequest request) {
        try (RawConnection connection = new RawConnection(cluster.clientAddress(node))) {
            if (password != null) {
                ServerReply authenticated = connection.call(
                        new AuthenticateRequest(requestIds.incrementAndGet(), "bob", Bytes.utf8(password)));
                if (!(authenticated instanceof AdminReply)) {
                    return authenticated;
                }
            }
            return connection.call(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
