package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.client.CommitResult;
import dev.duro.client.DuroClient;
import dev.duro.client.KeyValue;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ScanReply;
import dev.duro.core.wire.ScanRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range scans with the hash partitioner (three partitions): every partition is asked and the answers are merged in
 * key order, the limit applied after the merge, pages continuing past the servers' {@code limits.scan-keys-max}
 * (50 here); an update transaction that scans is certified at every partition, so it is global. A scan waits for
 * its snapshot and refuses a collected one as reads do ({@code engine.snapshots-retained} 20 here).
 */
class HashScanClusterTest {
    private static final int KEYS = 1_000;

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
                .label("scan-hash")
                .set("limits.scan-keys-max", "50")
                .set("engine.snapshots-retained", "20")
                .start();
        client = cluster.newClient();
        client.transact(tx -> {
            for (int i = 0; i < KEYS; i++) {
                tx.put(key(i), "v" + i);
            }
            return null;
        });
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String key(int i) {
        return String.format("h/%04d", i);
    }

    private static List<String> keys(List<KeyValue> entries) {
        List<String> keys = new ArrayList<>();
        entries.forEach(entry -> keys.add(entry.keyText()));
        return keys;
    }

    private static List<String> expected(int from, int to, boolean descending) {
        List<String> keys = new ArrayList<>();
        for (int i = from; i < to; i++) {
            keys.add(key(i));
        }
        if (descending) {
            Collections.reverse(keys);
        }
        return keys;
    }

    @Test
    void theKeysOfEveryPartitionAreMergedInOrder() {
        assertEquals(expected(0, KEYS, false), keys(client.readOnly(ro -> ro.scanPrefix("h/", 10_000))));
        assertEquals(expected(0, 120, false), keys(client.readOnly(ro -> ro.scanPrefix("h/", 120))));
        List<KeyValue> last = client.readOnly(ro -> ro.scanDescending(Bytes.utf8("h/0500"), Bytes.utf8("h/0700"), 130));
        assertEquals(expected(570, 700, true), keys(last));
        assertEquals("v699", last.get(0).valueText());
    }

    @Test
    void anUpdateTransactionThatScansIsCertifiedAtEveryPartition() {
        try (Transaction tx = client.begin()) {
            assertEquals(expected(0, 10, false), keys(tx.scanPrefix("h/", 10)));
            tx.put("h-summary", "10");
            CommitResult committed = tx.commit();
            assertEquals(3, committed.versions().size(), "every partition certified the scan: " + committed);
        }
    }

    @Test
    void aPhantomInAnyPartitionAbortsTheScanner() {
        Transaction scanner = client.begin();
        assertEquals(expected(200, 300, false), keys(scanner.scan("h/0200", "h/0300", 1_000)));
        client.put("h/0250x", "phantom");
        scanner.put("h-count", "100");
        assertThrows(TransactionAbortedException.class, scanner::commit);
        client.transact(tx -> {
            tx.delete("h/0250x");
            return null;
        });
    }

    @Test
    void aScanAtACollectedSnapshotIsTooOldAndOneAheadOfTheReplicaIsNotReady() throws IOException {
        String counter =
                TestCluster.keysOf(client.cluster(), 0, "h-counter-", 1).get(0);
        for (int i = 0; i < 30; i++) { // 30 versions at partition 0, more than it retains
            client.put(counter, Integer.toString(i));
        }
        String node = cluster.replicasOf(0).get(0);
        KeyRange all = KeyRange.prefix(Bytes.utf8("h/"));
        try (RawConnection raw = new RawConnection(cluster.clientAddress(node))) {
            ScanReply latest = assertInstanceOf(
                    ScanReply.class, raw.call(new ScanRequest(1, 0, ReadRequest.LATEST, 0, all, 5, false)));
            assertEquals(5, latest.entries().size());
            ErrorReply tooOld =
                    assertInstanceOf(ErrorReply.class, raw.call(new ScanRequest(2, 0, 1, 0, all, 5, false)));
            assertEquals(ErrorCode.SNAPSHOT_TOO_OLD, tooOld.code(), tooOld.message());
            ErrorReply notReady = assertInstanceOf(
                    ErrorReply.class, raw.call(new ScanRequest(3, 0, latest.snapshot() + 1_000_000, 0, all, 5, false)));
            assertEquals(ErrorCode.SNAPSHOT_NOT_READY, notReady.code(), notReady.message());
        }
    }
}
