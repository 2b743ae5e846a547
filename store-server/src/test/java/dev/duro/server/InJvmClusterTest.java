package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.ClusterView;
import dev.duro.client.CommitResult;
import dev.duro.client.DuroClient;
import dev.duro.client.ReadConsistency;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.consensus.GroupStatus;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Bytes;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.MultiReadReply;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ReplicaStatusReply;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.SnapshotVectorReply;
import dev.duro.core.wire.SnapshotVectorRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes in this JVM, two partitions of three replicas, driven through the real client by many threads:
 * local and global bank transfers keep their totals exactly under concurrent read-only audits (served by any
 * replica, followers included), read-only transactions never abort, and a client always reads its own writes.
 * The scenarios share one cluster and use disjoint keys.
 */
class InJvmClusterTest {
    private static final int PARTITIONS = 2;
    private static final long OPENING_BALANCE = 1_000;

    @TempDir
    static Path data;

    private static TestCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = TestCluster.builder(data)
                .nodes(3)
                .partitions(PARTITIONS)
                .replication(3)
                .flavour(TestCluster.Flavour.IN_JVM)
                .start();
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void concurrentTransfersWithinEachPartitionKeepThatPartitionsTotalForEveryAudit() throws Exception {
        DuroClient setup = cluster.newClient();
        ClusterView view = setup.cluster();
        List<List<String>> accounts = new ArrayList<>();
        // A cut a follower hands out is only as new as the chain it has heard of; a client that has seen the
        // opening commits asks for a cut covering them, as DuroClient's session does.
        Long[] opened = new Long[PARTITIONS];
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> ofPartition = TestCluster.keysOf(view, p, "local-bank-", 12);
            accounts.add(ofPartition);
            open(setup, ofPartition).forEach((partition, version) -> opened[partition] = version);
        }
        List<Long> openingCut = List.of(opened);
        long totalPerPartition = 12 * OPENING_BALANCE;
        List<DuroClient> clients = List.of(cluster.newClient(), cluster.newClient(), cluster.newClient());
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger gaveUp = new AtomicInteger();
        AtomicInteger audits = new AtomicInteger();
        AtomicInteger followerAudits = new AtomicInteger();
        AtomicBoolean transfersDone = new AtomicBoolean();
        Queue<String> violations = new ConcurrentLinkedQueue<>();

        List<Callable<Void>> transferrers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            DuroClient client = clients.get(t % clients.size());
            int partition = t % PARTITIONS;
            transferrers.add(() -> {
                for (int i = 0; i < 30; i++) {
                    List<String> ofPartition = accounts.get(partition);
                    if (transfer(client, ofPartition, ofPartition)) {
                        committed.incrementAndGet();
                    } else {
                        gaveUp.incrementAndGet();
                    }
                }
                return null;
            });
        }
        List<Callable<Void>> auditors = new ArrayList<>();
        auditors.add(() -> {
            // Read-only transactions over both partitions at one consistent cut, from any replica. The first is
            // linearizable, so it covers the opening; each later cut of this client is at least the one before.
            DuroClient client = clients.get(0);
            client.readOnly(
                    ReadConsistency.LINEARIZABLE,
                    ro -> ro.getLong(accounts.get(0).get(0)));
            for (int i = 0; i < 10_000 && (!transfersDone.get() || i < 5); i++) {
                long[] sums = client.readOnly(ro -> {
                    long[] perPartition = new long[PARTITIONS];
                    for (int p = 0; p < PARTITIONS; p++) {
                        for (String account : accounts.get(p)) {
                            perPartition[p] += ro.getLong(account);
                        }
                    }
                    return perPartition;
                });
                for (int p = 0; p < PARTITIONS; p++) {
                    if (sums[p] != totalPerPartition) {
                        violations.add("read-only audit saw partition " + p + " total " + sums[p]);
                    }
                }
                audits.incrementAndGet();
            }
            return null;
        });
        auditors.add(() -> {
            // An update transaction that only reads one partition commits without certification. The linearizable
            // cut first puts the opening into this client's session, so no replica serves a read from before it.
            DuroClient client = clients.get(1);
            client.readOnly(
                    ReadConsistency.LINEARIZABLE,
                    ro -> ro.getLong(accounts.get(0).get(0)));
            for (int i = 0; i < 10_000 && (!transfersDone.get() || i < 5); i++) {
                int partition = i % PARTITIONS;
                long sum;
                try (Transaction tx = client.begin()) {
                    sum = 0;
                    for (String account : accounts.get(partition)) {
                        sum += tx.getLong(account);
                    }
                    assertTrue(tx.commit().versions().isEmpty(), "a read-only local transaction sends nothing");
                }
                if (sum != totalPerPartition) {
                    violations.add("local read-only transaction saw partition " + partition + " total " + sum);
                }
                audits.incrementAndGet();
            }
            return null;
        });
        auditors.add(() -> {
            // The same audit served entirely by a follower: its cut, and its replica's reads at that cut.
            for (int i = 0; i < 10_000 && (!transfersDone.get() || i < 5); i++) {
                int partition = i % PARTITIONS;
                long sum = followerAudit(partition, accounts.get(partition), openingCut);
                if (sum != totalPerPartition) {
                    violations.add("follower audit saw partition " + partition + " total " + sum);
                }
                followerAudits.incrementAndGet();
            }
            return null;
        });

        runConcurrently(transferrers, auditors, transfersDone);

        assertEquals(List.of(), List.copyOf(violations));
        assertTrue(
                committed.get() >= 120, "most transfers commit: " + committed + " committed, " + gaveUp + " gave up");
        assertTrue(audits.get() >= 10 && followerAudits.get() >= 5, "audits ran: " + audits + ", " + followerAudits);
        for (int p = 0; p < PARTITIONS; p++) {
            assertEquals(totalPerPartition, total(setup, accounts.get(p)), "partition " + p + " at the end");
        }
        assertReplicasConvergedInProcess();
    }

    @Test
    void globalTransfersAcrossPartitionsAreSeenWholeByEveryReadOnlyAudit() throws Exception {
        DuroClient setup = cluster.newClient();
        ClusterView view = setup.cluster();
        List<String> inFirst = TestCluster.keysOf(view, 0, "global-bank-", 6);
        List<String> inSecond = TestCluster.keysOf(view, 1, "global-bank-", 6);
        open(setup, inFirst);
        open(setup, inSecond);
        List<String> all = new ArrayList<>(inFirst);
        all.addAll(inSecond);
        long total = all.size() * OPENING_BALANCE;
        List<DuroClient> clients = List.of(cluster.newClient(), cluster.newClient());
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger audits = new AtomicInteger();
        AtomicBoolean transfersDone = new AtomicBoolean();
        Queue<String> violations = new ConcurrentLinkedQueue<>();

        List<Callable<Void>> transferrers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            DuroClient client = clients.get(t % clients.size());
            boolean forward = t % 2 == 0;
            transferrers.add(() -> {
                for (int i = 0; i < 20; i++) {
                    // Always between the partitions: every transfer is a global transaction.
                    if (forward ? transfer(client, inFirst, inSecond) : transfer(client, inSecond, inFirst)) {
                        committed.incrementAndGet();
                    }
                }
                return null;
            });
        }
        List<Callable<Void>> auditors = new ArrayList<>();
        for (int a = 0; a < 2; a++) {
            DuroClient client = cluster.newClient();
            auditors.add(() -> {
                // A fresh client may first get a cut from before the opening; one linearizable read covers it,
                // and each later cut of this client is at least the one before (monotonic reads).
                client.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.getLong(all.get(0)));
                for (int i = 0; i < 10_000 && (!transfersDone.get() || i < 5); i++) {
                    long seen = client.readOnly(ro -> {
                        long sum = 0;
                        for (String account : all) {
                            sum += ro.getLong(account);
                        }
                        return sum;
                    });
                    if (seen != total) {
                        violations.add("read-only audit saw total " + seen);
                    }
                    audits.incrementAndGet();
                }
                return null;
            });
        }

        runConcurrently(transferrers, auditors, transfersDone);

        assertEquals(List.of(), List.copyOf(violations));
        assertTrue(committed.get() >= 60, "most global transfers commit: " + committed);
        assertTrue(audits.get() >= 10, "audits ran: " + audits);
        assertEquals(total, total(setup, all));
        long moved = 0;
        for (String account : inFirst) {
            moved += setup.readOnly(ro -> ro.getLong(account)) - OPENING_BALANCE;
        }
        assertEquals(
                -moved,
                total(setup, inSecond) - inSecond.size() * OPENING_BALANCE,
                "what left one partition arrived in the other");
        assertReplicasConvergedInProcess();
    }

    @Test
    void aClientReadsItsOwnCommittedWritesImmediately() throws Exception {
        AtomicBoolean writersDone = new AtomicBoolean();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        List<Callable<Void>> sessions = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            DuroClient client = cluster.newClient();
            String prefix = "session-" + c + "-";
            sessions.add(() -> {
                for (int i = 0; i < 25; i++) {
                    String key = prefix + (i % 5); // overwrites too: never an older value
                    String value = "value-" + i;
                    client.put(key, value);
                    String readOnly = client.get(key);
                    if (!value.equals(readOnly)) {
                        violations.add("read-only read of " + key + " saw " + readOnly + ", wrote " + value);
                    }
                    String inTransaction = client.transact(tx -> tx.get(key));
                    if (!value.equals(inTransaction)) {
                        violations.add("transaction read of " + key + " saw " + inTransaction + ", wrote " + value);
                    }
                }
                return null;
            });
        }
        // Unrelated load keeps the replicas busy, so followers lag behind the leader now and then.
        DuroClient loader = cluster.newClient();
        List<Callable<Void>> load = List.of(() -> {
            for (int i = 0; i < 10_000 && !writersDone.get(); i++) {
                int n = i;
                loader.transact(tx -> {
                    tx.put("session-load-" + (n % 50), "x" + n);
                    return null;
                });
            }
            return null;
        });

        runConcurrently(sessions, load, writersDone);

        assertEquals(List.of(), List.copyOf(violations));
    }

    /**
     * A cut request names the least cut it accepts (a client's session); the node answers once its chain reaches
     * it, or after {@code server.read-wait-millis-max} with the cut it has, and keeps serving.
     */
    @Test
    void aCutRequestWaitsForItsMinimumThenAnswersWithWhatTheNodeHas() throws Exception {
        DuroClient client = cluster.newClient();
        String node = cluster.nodeIds().get(0);
        try (RawConnection connection = new RawConnection(cluster.clientAddress(node))) {
            for (int i = 0; i < 5; i++) {
                Transaction tx = client.begin();
                tx.put("cut-minimum-a-" + i, "x");
                tx.put("cut-minimum-b-" + i, "y");
                CommitResult committed = tx.commit();
                List<Long> minimum = new ArrayList<>(List.of(0L, 0L));
                committed.versions().forEach((partition, version) -> minimum.set(partition, version));
                // Asked at once after the acknowledgement: the chain has usually not reached the commit yet.
                long[] cut = cutOf(connection.call(new SnapshotVectorRequest(10 + i, false, minimum)));
                for (int p = 0; p < PARTITIONS; p++) {
                    assertTrue(cut[p] >= minimum.get(p), "partition " + p + ": cut " + cut[p] + " < " + minimum);
                }
            }

            long[] now = cutOf(connection.call(new SnapshotVectorRequest(20)));
            List<Long> unreachable = List.of(now[0] + 1_000_000, 0L);
            long startNanos = System.nanoTime();
            long[] answered = cutOf(connection.call(new SnapshotVectorRequest(21, false, unreachable)));
            long waitedMillis = (System.nanoTime() - startNanos) / 1_000_000;
            assertTrue(answered[0] < unreachable.get(0), "the node answers with the cut it has");
            assertTrue(
                    waitedMillis >= 1_000, "it waited for its limit first (2 s by default): " + waitedMillis + " ms");

            ServerReply tooLong = connection.call(new SnapshotVectorRequest(22, false, List.of(0L, 0L, 0L)));
            assertEquals(
                    ErrorCode.UNKNOWN_PARTITION,
                    assertInstanceOf(ErrorReply.class, tooLong).code());
            cutOf(connection.call(new SnapshotVectorRequest(23))); // still serving
        }
    }

    /**
     * The asynchronous API composes reads, writes and the commit without a thread per transaction: many transfers in
     * flight at once, local and global, retried on abort by the policy, keep the total that an asynchronous
     * read-only transaction then sums.
     */
    @Test
    void asynchronousTransfersInFlightTogetherKeepTheTotal() throws Exception {
        DuroClient client = cluster.newClient();
        List<Bytes> accounts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            accounts.add(Bytes.utf8("async-account-" + i));
        }
        client.transact(tx -> {
            accounts.forEach(account -> tx.put(account, Bytes.utf8(Long.toString(OPENING_BALANCE))));
            return null;
        });
        int transfers = 100;
        List<CompletableFuture<Boolean>> inFlight = new ArrayList<>();
        for (int t = 0; t < transfers; t++) {
            Bytes from = accounts.get(t % accounts.size());
            Bytes to = accounts.get((t * 7 + 3) % accounts.size());
            if (from.equals(to)) {
                continue;
            }
            inFlight.add(client.<Boolean>transactAsync(
                            tx -> tx.getAllAsync(List.of(from, to)).thenApply(balances -> {
                                long fromBalance =
                                        Long.parseLong(balances.get(from).toUtf8());
                                long toBalance = Long.parseLong(balances.get(to).toUtf8());
                                tx.put(from, Bytes.utf8(Long.toString(fromBalance - 1)));
                                tx.put(to, Bytes.utf8(Long.toString(toBalance + 1)));
                                return true;
                            }))
                    .exceptionally(failure -> {
                        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                        assertInstanceOf(TransactionAbortedException.class, cause, "only aborts may end a transfer");
                        return false;
                    }));
        }
        CompletableFuture.allOf(inFlight.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
        long committed = inFlight.stream().filter(CompletableFuture::join).count();

        long total = client.readOnlyAsync(
                        ro -> ro.getAllAsync(accounts).thenApply(balances -> balances.values().stream()
                                .mapToLong(balance -> Long.parseLong(balance.toUtf8()))
                                .sum()))
                .get(30, TimeUnit.SECONDS);
        assertEquals(OPENING_BALANCE * accounts.size(), total, "money created or destroyed");
        assertTrue(committed > inFlight.size() / 2, "committed " + committed + " of " + inFlight.size());
    }

    /** {@code getAll} over both partitions, in an update and a read-only transaction, against real replicas. */
    @Test
    void getAllReadsKeysOfEveryPartitionInOneRequestEach() throws Exception {
        DuroClient client = cluster.newClient();
        List<Bytes> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add(Bytes.utf8("get-all-" + i));
        }
        Transaction writer = client.begin();
        for (int i = 0; i < keys.size(); i += 2) { // every other key written; the rest stay absent
            writer.put(keys.get(i), Bytes.utf8("v" + i));
        }
        writer.commit();

        Map<Bytes, Bytes> readOnly = client.readOnly(ro -> ro.getAll(keys));
        Transaction reader = client.begin();
        Map<Bytes, Bytes> inTransaction = reader.getAll(keys);
        reader.put("get-all-marker", "x"); // commits: the reads certify like single-key ones
        reader.commit();
        for (Map<Bytes, Bytes> values : List.of(readOnly, inTransaction)) {
            assertEquals(keys, new ArrayList<>(values.keySet()));
            for (int i = 0; i < keys.size(); i++) {
                assertEquals(i % 2 == 0 ? Bytes.utf8("v" + i) : null, values.get(keys.get(i)), "key " + i);
            }
        }

        // A key of another partition in a multi-key read is refused, and the node keeps serving.
        ClusterView view = client.cluster();
        Bytes first = keys.get(0);
        Bytes elsewhere = keys.stream()
                .filter(key -> view.partitionOf(key) != view.partitionOf(first))
                .findFirst()
                .orElseThrow();
        try (RawConnection connection =
                new RawConnection(cluster.clientAddress(cluster.nodeIds().get(0)))) {
            ServerReply refused = connection.call(
                    new MultiReadRequest(1, view.partitionOf(first), ReadRequest.LATEST, 0, List.of(first, elsewhere)));
            ErrorReply error = assertInstanceOf(ErrorReply.class, refused);
            assertEquals(ErrorCode.UNKNOWN_PARTITION, error.code());
            assertTrue(error.message().contains("belongs to partition"), error.message());
            ServerReply served = connection.call(
                    new MultiReadRequest(2, view.partitionOf(first), ReadRequest.LATEST, 0, List.of(first)));
            assertEquals(
                    Bytes.utf8("v0"),
                    assertInstanceOf(MultiReadReply.class, served)
                            .values()
                            .get(0)
                            .value());
        }
    }

    private static long[] cutOf(ServerReply reply) {
        return assertInstanceOf(SnapshotVectorReply.class, reply).cutArray();
    }

    @Test
    void replicaStatusRequestsReportWhatTheReplicasHold() throws Exception {
        DuroClient client = cluster.newClient();
        for (int i = 0; i < 20; i++) {
            client.put("status-" + i, "v" + i);
        }
        TestCluster.Converged converged = cluster.awaitConverged();
        for (String node : cluster.nodeIds()) {
            for (int p = 0; p < PARTITIONS; p++) {
                PartitionStateMachine replica = cluster.server(node).consensus().replica(p);
                ReplicaStatusReply overTheWire = cluster.replicaStatus(node, p);
                assertEquals(replica.snapshotCounter(), overTheWire.snapshotCounter());
                assertEquals(replica.contentDigest(), overTheWire.contentDigest());
                assertEquals(replica.pendingCount(), overTheWire.pendingCount());
                ReplicaStatusReply agreed = converged.partitions().get(p);
                assertEquals(agreed.snapshotCounter(), overTheWire.snapshotCounter());
                assertEquals(agreed.contentDigest(), overTheWire.contentDigest());
                // The replica's view of its Raft group: who it is, its leader, and a log applied to its commit.
                GroupStatus group = cluster.server(node).consensus().groupStatus(p);
                assertEquals(node, overTheWire.node());
                assertEquals(cluster.awaitLeader(p), overTheWire.leader());
                assertEquals(group.term(), overTheWire.term());
                assertTrue(overTheWire.term() >= 1, "term " + overTheWire.term());
                assertTrue(overTheWire.commitIndex() > 0, "commit index " + overTheWire.commitIndex());
                assertTrue(
                        overTheWire.appliedIndex() > 0 && overTheWire.appliedIndex() <= overTheWire.commitIndex(),
                        "applied " + overTheWire.appliedIndex() + " of " + overTheWire.commitIndex());
            }
        }
        try (RawConnection connection = new RawConnection(cluster.clientAddress("n1"))) {
            ServerReply reply = connection.call(new ReplicaStatusRequest(7, PARTITIONS));
            ErrorReply error = assertInstanceOf(ErrorReply.class, reply);
            assertEquals(ErrorCode.UNKNOWN_PARTITION, error.code());
        }
    }

    // ---- the bank ----

    /** Writes the opening balances in one blind (never aborting) transaction; returns its commit versions. */
    private static Map<Integer, Long> open(DuroClient client, List<String> accounts) {
        try (Transaction tx = client.begin()) {
            for (String account : accounts) {
                tx.putLong(account, OPENING_BALANCE);
            }
            return tx.commit().versions();
        }
    }

    /**
     * Moves a random amount from a random account of {@code from} to a different one of {@code to}. Returns
     * false if certification aborted every attempt (contention); any other failure fails the test.
     */
    private static boolean transfer(DuroClient client, List<String> from, List<String> to) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String source = from.get(random.nextInt(from.size()));
        String target;
        do {
            target = to.get(random.nextInt(to.size()));
        } while (target.equals(source));
        String destination = target;
        long amount = 1L + random.nextInt(50);
        try {
            client.transact(tx -> {
                long available = tx.getLong(source);
                long received = tx.getLong(destination);
                tx.putLong(source, available - amount);
                tx.putLong(destination, received + amount);
                return null;
            });
            return true;
        } catch (TransactionAbortedException contention) {
            return false;
        }
    }

    private static long total(DuroClient client, List<String> accounts) {
        return client.readOnly(ReadConsistency.LINEARIZABLE, ro -> {
            long sum = 0;
            for (String account : accounts) {
                sum += ro.getLong(account);
            }
            return sum;
        });
    }

    /** Sums {@code accounts} (all of {@code partition}) entirely at a follower: its cut, its replica, raw reads. */
    private static long followerAudit(int partition, List<String> accounts, List<Long> minimum) throws IOException {
        String leader = cluster.awaitLeader(partition);
        String follower = cluster.replicasOf(partition).stream()
                .filter(node -> !node.equals(leader))
                .findFirst()
                .orElseThrow();
        try (RawConnection connection = new RawConnection(cluster.clientAddress(follower))) {
            ServerReply cutReply = connection.call(new SnapshotVectorRequest(1, false, minimum));
            long snapshot =
                    assertInstanceOf(SnapshotVectorReply.class, cutReply).cut().get(partition);
            assertTrue(snapshot >= minimum.get(partition), () -> "follower " + follower + " cut covers the opening");
            long sum = 0;
            long requestId = 2;
            for (String account : accounts) {
                ServerReply reply = connection.call(new ReadRequest(requestId++, Bytes.utf8(account), snapshot, 0));
                ReadReply read = assertInstanceOf(ReadReply.class, reply, () -> "follower " + follower + " read");
                assertEquals(snapshot, read.snapshot());
                sum += read.value() == null ? 0 : Long.parseLong(read.value().toUtf8());
            }
            return sum;
        }
    }

    /**
     * Runs the workers and the observers together; once every worker is done, raises {@code workersDone} so the
     * observers finish their current round. Fails with the first failure of any of them.
     */
    private static void runConcurrently(
            List<Callable<Void>> workers, List<Callable<Void>> observers, AtomicBoolean workersDone) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(workers.size() + observers.size());
        try {
            List<Future<Void>> working = new ArrayList<>();
            List<Future<Void>> observing = new ArrayList<>();
            for (Callable<Void> worker : workers) {
                working.add(threads.submit(worker));
            }
            for (Callable<Void> observer : observers) {
                observing.add(threads.submit(observer));
            }
            try {
                for (Future<Void> future : working) {
                    future.get(Await.DEADLINE.toSeconds() * 3, TimeUnit.SECONDS);
                }
            } finally {
                workersDone.set(true);
            }
            for (Future<Void> future : observing) {
                future.get(Await.DEADLINE.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        if (!threads.awaitTermination(Await.DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("test threads did not stop");
        }
    }

    /** Every replica of every partition holds the same content at the same SC, read in process. */
    private static void assertReplicasConvergedInProcess() {
        TestCluster.Converged converged = cluster.awaitConverged();
        for (Map.Entry<Integer, ReplicaStatusReply> agreed :
                converged.partitions().entrySet()) {
            for (String node : cluster.replicasOf(agreed.getKey())) {
                PartitionStateMachine replica = cluster.server(node).consensus().replica(agreed.getKey());
                assertEquals(agreed.getValue().snapshotCounter(), replica.snapshotCounter(), node);
                assertEquals(agreed.getValue().contentDigest(), replica.contentDigest(), node);
            }
        }
    }
}
