package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.DuroClient;
import dev.duro.client.KeyValue;
import dev.duro.client.ReadConsistency;
import dev.duro.client.ReadOnlyTransaction;
import dev.duro.client.ScanOrder;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ScanReply;
import dev.duro.core.wire.ScanRequest;
import dev.duro.core.wire.ServerReply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range scans against real servers on loopback with the range partitioner (three partitions split at {@code k0400}
 * and {@code k0800}): scans over 1,200 keys in both directions with limits, across partitions, past the servers'
 * {@code limits.scan-keys-max} (set to 100 here, so every long scan pages), at a read-only transaction's cut, with
 * the transaction's own writes, and the phantom scenarios (docs/ranges.md). Scenarios use disjoint keys.
 */
class ScanClusterTest {
    private static final int KEYS = 1_200;

    @TempDir
    static Path data;

    private static TestCluster cluster;
    private static DuroClient client;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = TestCluster.builder(data)
                .nodes(3)
                .partitions(3)
                .replication(3)
                .label("scan-range")
                .set("cluster.partitioner", "range:k0400,k0800")
                .set("limits.scan-keys-max", "100")
                .start();
        client = cluster.newClient();
        client.transact(
                tx -> { // the readiness probes of the partitions that start at k0400 and k0800
                    for (int p = 0; p < 3; p++) {
                        tx.delete(TestCluster.probeKey(client.cluster(), p));
                    }
                    return null;
                });
        for (int start = 0; start < KEYS; start += 400) {
            int first = start;
            client.transact(tx -> {
                for (int i = first; i < first + 400; i++) {
                    tx.put(key(i), "v" + i);
                }
                return null;
            });
        }
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String key(int i) {
        return String.format("k%04d", i);
    }

    private static List<String> keys(List<KeyValue> entries) {
        List<String> keys = new ArrayList<>();
        for (KeyValue entry : entries) {
            keys.add(entry.keyText());
        }
        return keys;
    }

    private static List<String> expected(int from, int to, boolean descending) {
        List<String> keys = new ArrayList<>();
        for (int i = from; i < to; i++) {
            keys.add(key(i));
        }
        if (descending) {
            java.util.Collections.reverse(keys);
        }
        return keys;
    }

    @Test
    void anAscendingScanReturnsEveryKeyOfEveryPartitionInOrder() {
        List<KeyValue> all = client.readOnly(ro -> ro.scan("k", "l", 100_000));
        assertEquals(expected(0, KEYS, false), keys(all));
        assertEquals("v1199", all.get(KEYS - 1).valueText());
        assertEquals(expected(0, 250, false), keys(client.readOnly(ro -> ro.scan("k", "l", 250))));
    }

    @Test
    void aDescendingScanWithALimitKeepsTheLargestKeys() {
        List<KeyValue> last = client.readOnly(ro -> ro.scanDescending(Bytes.utf8("k"), Bytes.utf8("l"), 450));
        assertEquals(expected(KEYS - 450, KEYS, true), keys(last));
        // No end: every key from k up, the other scenarios' keys (all above k1199) first.
        List<String> all = keys(client.readOnly(ro -> ro.scanDescending(Bytes.utf8("k"), null, 100_000)));
        assertEquals(expected(0, KEYS, true), all.subList(all.indexOf("k1199"), all.size()));
    }

    @Test
    void aScanAcrossTwoSplitPointsHonoursTheLimitOverThePartitions() {
        // [k0390, k0810) crosses all three partitions; 415 keys reach into the third.
        List<KeyValue> crossing = client.readOnly(ro -> ro.scan("k0390", "k0810", 415));
        assertEquals(expected(390, 805, false), keys(crossing));
        List<KeyValue> tail = client.transact(tx -> tx.scanDescending(Bytes.utf8("k0390"), Bytes.utf8("k0810"), 15));
        assertEquals(expected(795, 810, true), keys(tail));
        assertEquals(expected(1000, 1100, false), keys(client.readOnly(ro -> ro.scanPrefix("k10", 1000))));
    }

    @Test
    void aReadOnlyTransactionsScanDoesNotSeeLaterWrites() {
        ReadOnlyTransaction before = client.beginReadOnly();
        List<KeyValue> first = before.scanPrefix("snap/", 100);
        assertEquals(List.of(), first);
        client.put("snap/a", "1");
        assertEquals(List.of(), before.scanPrefix("snap/", 100));
        assertEquals(List.of("snap/a"), keys(client.readOnly(ro -> ro.scanPrefix("snap/", 100))));
    }

    @Test
    void aReadOnlyScanAcrossPartitionsReadsEachAtItsCutSoAGlobalWriteIsWhollyAbsent() {
        ReadOnlyTransaction reader = client.beginReadOnly();
        List<KeyValue> before = reader.scan("k0398", "k0402", 100); // partitions 0 and 1, at the reader's cut
        assertEquals(expected(398, 402, false), keys(before));
        client.transact(
                tx -> { // a global transaction: one key in each partition the scan crosses
                    tx.put("k0399z", "new");
                    tx.put("k0400z", "new");
                    return null;
                });
        try {
            assertEquals(before, reader.scan("k0398", "k0402", 100));
            List<String> after =
                    keys(client.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.scan("k0398", "k0402", 100)));
            assertEquals(List.of("k0398", "k0399", "k0399z", "k0400", "k0400z", "k0401"), after);
        } finally {
            client.transact(tx -> {
                tx.delete("k0399z");
                tx.delete("k0400z");
                return null;
            });
        }
    }

    @Test
    void aTransactionsScanShowsItsOwnWritesAndHidesItsDeletes() {
        client.transact(tx -> {
            tx.put("own/a", "1");
            tx.put("own/c", "3");
            return null;
        });
        try (Transaction tx = client.begin()) {
            tx.put("own/b", "2");
            tx.delete("own/a");
            tx.put("own/c", "33");
            List<KeyValue> seen = tx.scanPrefix("own/", 10);
            assertEquals(List.of("own/b", "own/c"), keys(seen));
            assertEquals("33", seen.get(1).valueText());
            assertEquals(List.of("own/c"), keys(tx.scanPrefix(Bytes.utf8("own/"), 1, ScanOrder.DESCENDING)));
        }
    }

    @Test
    void anInsertIntoAScannedRangeByAConcurrentTransactionAbortsTheScanner() {
        client.put("ph/a", "1");
        Transaction scanner = client.begin();
        assertEquals(List.of("ph/a"), keys(scanner.scanPrefix("ph/", 10)));
        client.put("ph/b", "2"); // a phantom: a key the scan would now return
        scanner.put("ph-count", "1");
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class, scanner::commit);
        assertTrue(aborted.getMessage().contains("ph/b"), aborted.getMessage());
    }

    @Test
    void aDeleteInsideAScannedRangeAbortsTheScannerToo() {
        client.put("phd/a", "1");
        Transaction scanner = client.begin();
        assertEquals(1, scanner.scanPrefix("phd/", 10).size());
        client.transact(tx -> {
            tx.delete("phd/a");
            return null;
        });
        scanner.put("phd-count", "1");
        assertThrows(TransactionAbortedException.class, scanner::commit);
    }

    @Test
    void withoutAConcurrentInsertTheScannerCommits() {
        client.put("nph/a", "1");
        Transaction scanner = client.begin();
        assertEquals(List.of("nph/a"), keys(scanner.scanPrefix("nph/", 10)));
        client.put("nph0", "outside"); // just after the prefix: not in the range
        scanner.put("nph-count", "1");
        scanner.commit();
        assertEquals("1", client.get("nph-count"));
    }

    @Test
    void aScanCutByItsLimitCertifiesOnlyTheKeysUpToItsLastOne() {
        client.transact(tx -> {
            tx.put("lim/a", "1");
            tx.put("lim/b", "2");
            tx.put("lim/c", "3");
            return null;
        });
        Transaction beyond = client.begin();
        assertEquals(List.of("lim/a", "lim/b"), keys(beyond.scanPrefix("lim/", 2)));
        client.put("lim/bb", "inserted after the last key returned");
        beyond.put("lim-count", "2");
        beyond.commit(); // lim/bb lies beyond lim/b: never observed

        Transaction within = client.begin();
        assertEquals(List.of("lim/a", "lim/b"), keys(within.scanPrefix("lim/", 2)));
        client.put("lim/ab", "inserted between two keys returned");
        within.put("lim-count", "3");
        assertThrows(TransactionAbortedException.class, within::commit);
    }

    @Test
    void aScanSpanningPartitionsMakesTheTransactionGlobalAndIsCertifiedEverywhere() {
        Transaction scanner = client.begin();
        assertEquals(20, scanner.scan("k0390", "k0810", 20).size()); // k0390..k0409: partitions 0 and 1
        client.put("k0405a", "phantom in partition 1");
        try {
            scanner.put("k0001", "changed");
            assertThrows(TransactionAbortedException.class, scanner::commit);
        } finally {
            client.transact(tx -> {
                tx.delete("k0405a"); // the other scenarios expect k0000..k1199 only
                return null;
            });
        }
    }

    @Test
    void theServerReturnsAtMostItsScanMaximumAndSaysMoreRemain() throws IOException {
        int partition = 1;
        String node = cluster.replicasOf(partition).get(0);
        try (RawConnection raw = new RawConnection(cluster.clientAddress(node))) {
            ServerReply reply = raw.call(new ScanRequest(
                    7, partition, ReadRequest.LATEST, 0, new KeyRange(Bytes.utf8("k"), null), 1_000, false));
            ScanReply page = assertInstanceOf(ScanReply.class, reply);
            assertEquals(100, page.entries().size());
            assertTrue(page.more());
            assertEquals("k0400", page.entries().get(0).key().toUtf8());
            ServerReply rest = raw.call(new ScanRequest(
                    8,
                    partition,
                    page.snapshot(),
                    0,
                    new KeyRange(Bytes.utf8("k0790"), Bytes.utf8("k0800")),
                    50,
                    true));
            ScanReply last = assertInstanceOf(ScanReply.class, rest);
            assertEquals(10, last.entries().size());
            assertFalse(last.more());
            assertEquals("k0799", last.entries().get(0).key().toUtf8());

            ServerReply reserved =
                    raw.call(new ScanRequest(9, 0, ReadRequest.LATEST, 0, new KeyRange(Bytes.EMPTY, null), 10, false));
            ErrorReply refused = assertInstanceOf(ErrorReply.class, reserved);
            assertEquals(ErrorCode.PERMISSION_DENIED, refused.code());
            assertTrue(refused.message().contains("reserved prefix"), refused.message());
        }
        // The client leaves the reserved keys out of a scan of everything.
        assertEquals(
                KEYS,
                keys(client.readOnly(ro -> ro.scan(KeyRange.ALL, 100_000, ScanOrder.ASCENDING))).stream()
                        .filter(key -> key.startsWith("k") && key.length() == 5)
                        .count());
    }
}
