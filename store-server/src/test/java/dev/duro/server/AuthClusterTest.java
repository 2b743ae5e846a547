package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.AuthenticationException;
import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.PermissionDeniedException;
import dev.duro.client.ReadConsistency;
import dev.duro.client.ServerErrorException;
import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.AuthenticateRequest;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users, roles and grants on a real cluster of three nodes on loopback (docs/auth.md): the record is written by
 * admin requests, enforced at every node, kept across a full restart, and concurrent changes lose nothing.
 */
class AuthClusterTest {
    private static final String ROOT_PASSWORD = "root-secret";
    private static final String ALICE_PASSWORD = "alice-secret";
    private static final String BOB_PASSWORD = "bob-secret";
    private static final long REFRESH_MILLIS = 300;

    @TempDir
    Path data;

    private TestCluster cluster;
    private final List<DuroClient> clients = new ArrayList<>();
    private final AtomicLong requestIds = new AtomicLong();

    @BeforeEach
    void startCluster(TestInfo test) throws IOException {
        cluster = TestCluster.builder(data)
                .label(getClass().getSimpleName() + "-"
                        + test.getTestMethod().orElseThrow().getName())
                .nodes(3)
                .partitions(2)
                .replication(3)
                .set("auth.refresh-millis", Long.toString(REFRESH_MILLIS))
                .set("auth.password-iterations", "10000")
                .start();
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

    private DuroClient client(String user, String password) {
        DuroClient.Builder builder = DuroClient.builder().seeds(cluster.seeds()).requestTimeout(Duration.ofSeconds(10));
        if (user != null) {
            builder.credentials(user, password.toCharArray());
        }
        DuroClient client = builder.build();
        clients.add(client);
        return client;
    }

    /** root (role root), alice (readwrite on app/), bob (read on app/), auth enabled: made while auth is off. */
    private void enableWithAliceAndBob() {
        DuroClient anonymous = client(null, null);
        anonymous.admin("user-add", List.of("root"), ROOT_PASSWORD.toCharArray());
        anonymous.admin("user-grant-role", List.of("root", "root"), null);
        anonymous.admin("role-add", List.of("app-writer"), null);
        anonymous.admin("role-grant", List.of("app-writer", "readwrite", "app/"), null);
        anonymous.admin("role-add", List.of("app-reader"), null);
        anonymous.admin("role-grant", List.of("app-reader", "read", "app/"), null);
        anonymous.admin("user-add", List.of("alice"), ALICE_PASSWORD.toCharArray());
        anonymous.admin("user-grant-role", List.of("alice", "app-writer"), null);
        anonymous.admin("user-add", List.of("bob"), BOB_PASSWORD.toCharArray());
        anonymous.admin("user-grant-role", List.of("bob", "app-reader"), null);
        anonymous.admin("auth-enable", List.of(), null);
        awaitEnforcedEverywhere();
    }

    /**
     * Waits until every node refuses an unauthenticated read: each node reads the record every refresh period, so
     * a change made through one node reaches the others within it (docs/auth.md, "Staleness").
     */
    private void awaitEnforcedEverywhere() {
        for (String node : cluster.nodeIds()) {
            Await.until("node " + node + " enforces auth", () -> {
                try (RawConnection connection = new RawConnection(cluster.clientAddress(node))) {
                    ServerReply reply = connection.call(readRequest("app/probe"));
                    return reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHENTICATED
                            ? Await.Poll.done(error)
                            : Await.Poll.notYet(node + " answered " + reply);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Test
    void aUserWritesUnderItsPrefixAndIsRefusedElsewhereNamingThePrefixAndItself() {
        enableWithAliceAndBob();
        DuroClient alice = client("alice", ALICE_PASSWORD);
        alice.put("app/x", "1");
        assertEquals("1", alice.get("app/x"));

        PermissionDeniedException denied =
                assertThrows(PermissionDeniedException.class, () -> alice.put("other/x", "1"));
        assertEquals(ErrorCode.PERMISSION_DENIED, denied.code());
        assertTrue(denied.getMessage().contains("alice"), denied.getMessage());
        assertTrue(denied.getMessage().contains("other/x"), denied.getMessage());

        // A transaction writing under both prefixes aborts whole: its app/ write is not applied.
        assertThrows(
                PermissionDeniedException.class,
                () -> alice.transact(tx -> {
                    tx.put("app/x", "2");
                    tx.put("other/y", "2");
                    return null;
                }));
        DuroClient root = client("root", ROOT_PASSWORD);
        assertEquals("1", root.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.get("app/x")));
        assertNull(root.get("other/y"));
    }

    @Test
    void aCommitTouchingAForbiddenKeyIsRefusedBeforeAnythingIsAppended() throws IOException {
        enableWithAliceAndBob();
        ClusterView view = client("root", ROOT_PASSWORD).cluster();
        Bytes allowed = Bytes.utf8("app/raw");
        Bytes forbidden = Bytes.utf8("other/raw");
        try (RawConnection connection = new RawConnection(cluster.clientAddress("n1"))) {
            assertInstanceOf(
                    AdminReply.class,
                    connection.call(new AuthenticateRequest(
                            requestIds.incrementAndGet(), "alice", Bytes.utf8(ALICE_PASSWORD))));
            ServerReply refused = connection.call(commit(view, Map.of(allowed, "a", forbidden, "b")));
            ErrorReply error = assertInstanceOf(ErrorReply.class, refused);
            assertEquals(ErrorCode.PERMISSION_DENIED, error.code());
            assertTrue(error.message().contains("alice") && error.message().contains("other/raw"), error.message());
            assertNull(read(connection, allowed), "the allowed half of a refused commit was applied");

            // The same commit without the forbidden key commits: the refusal, not the request, kept app/raw empty.
            ServerReply committed = connection.call(commit(view, Map.of(allowed, "a")));
            assertTrue(assertInstanceOf(OutcomeReply.class, committed).outcome().committed(), committed.toString());
            assertEquals(Bytes.utf8("a"), read(connection, allowed));
        }
    }

    @Test
    void aReaderCannotWriteAndStrangersAndWrongPasswordsAreUnauthenticated() throws IOException {
        enableWithAliceAndBob();
        client("alice", ALICE_PASSWORD).put("app/shared", "v");
        DuroClient bob = client("bob", BOB_PASSWORD);
        // Another client's commit: only a linearizable read is sure to see it (a snapshot read may trail it).
        assertEquals("v", bob.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.get("app/shared")));
        PermissionDeniedException denied =
                assertThrows(PermissionDeniedException.class, () -> bob.put("app/shared", "w"));
        assertTrue(denied.getMessage().contains("bob") && denied.getMessage().contains("app/"), denied.getMessage());

        assertThrows(AuthenticationException.class, () -> client(null, null).get("app/shared"));
        AuthenticationException wrong = assertThrows(
                AuthenticationException.class, () -> client("bob", "not-bobs").get("app/shared"));
        assertTrue(wrong.getMessage().contains("bob"), wrong.getMessage());

        // On one connection: refused, then unauthenticated requests refused, then a retry with the right password.
        try (RawConnection connection = new RawConnection(cluster.clientAddress("n2"))) {
            ErrorReply refused = assertInstanceOf(
                    ErrorReply.class,
                    connection.call(new AuthenticateRequest(requestIds.incrementAndGet(), "bob", Bytes.utf8("nope"))));
            assertEquals(ErrorCode.UNAUTHENTICATED, refused.code());
            ErrorReply anonymous = assertInstanceOf(ErrorReply.class, connection.call(readRequest("app/shared")));
            assertEquals(ErrorCode.UNAUTHENTICATED, anonymous.code());
            assertInstanceOf(
                    AdminReply.class,
                    connection.call(
                            new AuthenticateRequest(requestIds.incrementAndGet(), "bob", Bytes.utf8(BOB_PASSWORD))));
            assertEquals(Bytes.utf8("v"), read(connection, Bytes.utf8("app/shared")));
        }
    }

    /**
     * A password login holds only while the record keeps the password it was checked against: a user removed and
     * added again under the same name (a new salt, so a new hash, whatever the password) is someone new, and a
     * connection that logged in as the old one is unauthenticated at every node; the client logs in again.
     */
    @Test
    void aLoginEndsWhenItsUserIsRemovedOrGivenANewPassword() throws IOException {
        enableWithAliceAndBob();
        DuroClient root = client("root", ROOT_PASSWORD);
        DuroClient bob = client("bob", BOB_PASSWORD);
        assertEquals(null, bob.get("app/unset"));
        try (RawConnection connection = new RawConnection(cluster.clientAddress("n3"))) {
            assertInstanceOf(
                    AdminReply.class,
                    connection.call(
                            new AuthenticateRequest(requestIds.incrementAndGet(), "bob", Bytes.utf8(BOB_PASSWORD))));
            assertInstanceOf(ReadReply.class, connection.call(readRequest("app/unset")));

            root.admin("user-remove", List.of("bob"), null);
            root.admin("user-add", List.of("bob"), BOB_PASSWORD.toCharArray());
            root.admin("user-grant-role", List.of("bob", "app-reader"), null);

            Await.until("n3 ends bob's old login", () -> {
                ServerReply reply = readOnce(connection, "app/unset");
                return reply instanceof ErrorReply error && error.code() == ErrorCode.UNAUTHENTICATED
                        ? Await.Poll.done(error)
                        : Await.Poll.notYet("n3 answered " + reply);
            });
            assertInstanceOf(
                    AdminReply.class,
                    connection.call(
                            new AuthenticateRequest(requestIds.incrementAndGet(), "bob", Bytes.utf8(BOB_PASSWORD))),
                    "logging in again works");
            // The three changes reach n3 one refresh at a time (auth.refresh-millis): it may have the new password and
            // not yet the role grant, and refuse the read until it has.
            Await.until("n3 serves the new bob's reads", () -> {
                ServerReply reply = readOnce(connection, "app/unset");
                return reply instanceof ReadReply read
                        ? Await.Poll.done(read)
                        : Await.Poll.notYet("n3 answered " + reply);
            });
        }
        // The client whose connections logged in as the old bob logs in again by itself.
        Await.until("bob's client reads again", () -> {
            try {
                return Await.Poll.done(bob.get("app/unset") == null);
            } catch (AuthenticationException stale) {
                return Await.Poll.notYet(stale.getMessage());
            }
        });
    }

    @Test
    void reservedKeysAndAdminCommandsAreRefusedToOrdinaryUsers() {
        enableWithAliceAndBob();
        DuroClient alice = client("alice", ALICE_PASSWORD);
        Bytes record = AdminRequest.AUTH_RECORD_KEY;
        assertThrows(PermissionDeniedException.class, () -> alice.transact(tx -> tx.get(record)));
        assertThrows(
                PermissionDeniedException.class,
                () -> alice.transact(tx -> {
                    tx.put(record, Bytes.utf8("garbage"));
                    return null;
                }));
        PermissionDeniedException admin = assertThrows(
                PermissionDeniedException.class,
                () -> alice.admin("role-grant", List.of("app-writer", "readwrite", ""), null));
        assertTrue(admin.getMessage().contains("alice"), admin.getMessage());
        // Root reaches the record through admin commands only.
        DuroClient root = client("root", ROOT_PASSWORD);
        assertThrows(PermissionDeniedException.class, () -> root.transact(tx -> tx.get(record)));
        String status = root.admin("auth-status", List.of(), null);
        assertTrue(status.contains("auth enabled") && status.contains("alice"), status);
    }

    @Test
    void aGrantMadeThroughOneNodeIsEnforcedByEveryNodeWithinTheRefreshPeriod() throws IOException {
        enableWithAliceAndBob();
        DuroClient root = client("root", ROOT_PASSWORD);
        root.put("team/doc", "d");
        for (String node : cluster.nodeIds()) {
            assertEquals(ErrorCode.PERMISSION_DENIED, bobReads(node, "team/doc").code());
        }
        root.admin("role-grant", List.of("app-reader", "read", "team/"), null);
        for (String node : cluster.nodeIds()) {
            Await.until("node " + node + " lets bob read team/doc", () -> {
                ServerReply reply = bobReadsReply(node, "team/doc");
                return reply instanceof ReadReply read && Bytes.utf8("d").equals(read.value())
                        ? Await.Poll.done(read)
                        : Await.Poll.notYet(node + " answered " + reply);
            });
        }
        root.admin("role-revoke", List.of("app-reader", "team/"), null);
        for (String node : cluster.nodeIds()) {
            Await.until("node " + node + " refuses bob team/doc again", () -> {
                ServerReply reply = bobReadsReply(node, "team/doc");
                return reply instanceof ErrorReply error && error.code() == ErrorCode.PERMISSION_DENIED
                        ? Await.Poll.done(error)
                        : Await.Poll.notYet(node + " answered " + reply);
            });
        }
    }

    @Test
    void concurrentAdminChangesThroughDifferentClientsLoseNone() {
        DuroClient[] admins = {client(null, null), client(null, null), client(null, null), client(null, null)};
        int rolesPerClient = 5;
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int c = 0; c < admins.length; c++) {
            DuroClient admin = admins[c];
            int id = c;
            threads.add(new Thread(() -> {
                try {
                    for (int r = 0; r < rolesPerClient; r++) {
                        admin.admin("role-add", List.of("role-" + id + "-" + r), null);
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        Await.joinAll(threads);
        assertEquals(List.of(), failures);
        String status = admins[0].admin("auth-status", List.of(), null);
        for (int c = 0; c < admins.length; c++) {
            for (int r = 0; r < rolesPerClient; r++) {
                assertTrue(status.contains("role-" + c + "-" + r + ":"), "role-" + c + "-" + r + " lost: " + status);
            }
        }
    }

    @Test
    void theAuthRecordSurvivesAFullClusterRestart() throws IOException {
        enableWithAliceAndBob();
        client("alice", ALICE_PASSWORD).put("app/kept", "k");
        for (DuroClient client : clients) {
            client.close();
        }
        clients.clear();
        for (String node : cluster.nodeIds()) {
            cluster.stop(node);
        }
        cluster.start(cluster.nodeIds().toArray(new String[0]));

        DuroClient alice = client("alice", ALICE_PASSWORD);
        String kept = Await.until("alice reads after the restart", () -> {
            try {
                return Await.Poll.done(alice.get("app/kept"));
            } catch (ServerErrorException | dev.duro.client.UnavailableException e) {
                if (e instanceof PermissionDeniedException || e instanceof AuthenticationException) {
                    throw e;
                }
                return Await.Poll.notYet(e.getMessage());
            }
        });
        assertEquals("k", kept);
        assertThrows(PermissionDeniedException.class, () -> alice.put("other/x", "1"));
        assertThrows(AuthenticationException.class, () -> client(null, null).get("app/kept"));
    }

    // ---- raw requests ----

    private ErrorReply bobReads(String node, String key) {
        return assertInstanceOf(ErrorReply.class, bobReadsReply(node, key));
    }

    /** Bob's read of {@code key} at {@code node}, on a connection of its own to that node. */
    private ServerReply bobReadsReply(String node, String key) {
        try (RawConnection connection = new RawConnection(cluster.clientAddress(node))) {
            ServerReply authenticated = connection.call(
                    new AuthenticateRequest(requestIds.incrementAndGet(), "bob", Bytes.utf8(BOB_PASSWORD)));
            if (!(authenticated instanceof AdminReply)) {
                return authenticated;
            }
            return connection.call(readRequest(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One read of {@code key} on {@code connection}, for a poll: an I/O failure ends the wait. */
    private ServerReply readOnce(RawConnection connection, String key) {
        try {
            return connection.call(readRequest(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ClientRequest readRequest(String key) {
        return new ReadRequest(requestIds.incrementAndGet(), Bytes.utf8(key), ReadRequest.LATEST, 0);
    }

    private Bytes read(RawConnection connection, Bytes key) throws IOException {
        ServerReply reply = connection.call(new ReadRequest(requestIds.incrementAndGet(), key, ReadRequest.LATEST, 0));
        return assertInstanceOf(ReadReply.class, reply, String.valueOf(reply)).value();
    }

    /** A blind write of {@code writes} at snapshot 0 of each partition, sent as one transaction. */
    private CommitTransaction commit(ClusterView view, Map<Bytes, String> writes) {
        Map<Integer, List<Write>> byPartition = new TreeMap<>();
        writes.forEach((key, value) -> byPartition
                .computeIfAbsent(view.partitionOf(key), p -> new ArrayList<>())
                .add(Write.put(key, Bytes.utf8(value))));
        List<CommitTransaction.Participant> participants = new ArrayList<>();
        byPartition.forEach((partition, partitionWrites) ->
                participants.add(new CommitTransaction.Participant(partition, 0, List.of(), partitionWrites)));
        return new CommitTransaction(
                requestIds.incrementAndGet(), new TxId(0x7e57, requestIds.incrementAndGet()), participants);
    }
}
