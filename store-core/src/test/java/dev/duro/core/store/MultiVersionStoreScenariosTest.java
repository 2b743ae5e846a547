package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MultiVersionStoreScenariosTest {
    private static final Bytes KEY = Bytes.utf8("k");
    private static final Bytes OLD = Bytes.utf8("old");
    private static final Bytes NEW = Bytes.utf8("new");

    /**
     * New keys reach the sorted map in batches; keys deleted, collected and written again between batches, across
     * many batches, scan exactly as a full history says.
     */
    @Test
    void scansAgreeWithTheHistoryAcrossManyBatchesOfNewKeys() {
        MultiVersionStore store = new MultiVersionStore();
        NaiveVersionHistory naive = new NaiveVersionHistory();
        Random random = new Random(7);
        long version = 0;
        for (int round = 0; round < 30; round++) {
            for (int i = 0; i < 1_000; i++) {
                version++;
                Bytes key = Bytes.utf8("k" + random.nextInt(20_000));
                Bytes value = random.nextInt(5) == 0 ? null : Bytes.utf8("v" + version);
                store.put(key, value, version);
                naive.put(key, value, version);
            }
            store.collectGarbage(version - 500);
            KeyRange range = KeyRange.prefix(Bytes.utf8("k" + random.nextInt(20)));
            boolean descending = random.nextBoolean();
            assertEquals(naive.scan(range, 5_000, descending, version), store.scan(range, 5_000, descending, version));
        }
        assertEquals(
                naive.scan(KeyRange.ALL, 100_000, false, version), store.scan(KeyRange.ALL, 100_000, false, version));
    }

    @Test
    void readingAheadChangesNothingWhateverHowManyKeysAndDueVersions() {
        MultiVersionStore store = new MultiVersionStore();
        long version = 0;
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < 200; k++) {
                store.put(Bytes.utf8("k" + k), k % 7 == 0 ? null : Bytes.utf8("v" + round), ++version);
            }
        }
        List<Write> writes = new ArrayList<>();
        for (int k = 0; k < 100; k++) { // more keys than one read-ahead takes, some absent from the store
            writes.add(Write.put(Bytes.utf8("k" + (3 * k)), Bytes.utf8("w")));
        }
        byte[] before = bytesOf(store);
        for (long horizon : new long[] {0, 1, 250, version}) { // none, some and every queued version due
            for (int n : new int[] {0, 1, 4, 100}) {
                store.touch(writes.subList(0, n), horizon);
            }
        }
        assertArrayEquals(before, bytesOf(store), "reading ahead changed the store");
        store.collectGarbage(version);
        assertEquals(VersionedValue.ABSENT, store.get(Bytes.utf8("k0"), version));
        assertEquals(Bytes.utf8("v2"), store.get(Bytes.utf8("k1"), version).value());
    }

    private static byte[] bytesOf(MultiVersionStore store) {
        ByteWriter out = new ByteWriter();
        store.writeTo(out);
        return out.toByteArray();
    }

    @Test
    void aReadSeesTheNewestVersionAtOrBelowItsSnapshot() {
        MultiVersionStore store = new MultiVersionStore();
        store.put(KEY, OLD, 2);
        store.put(KEY, NEW, 5);
        assertEquals(VersionedValue.ABSENT, store.get(KEY, 1));
        assertEquals(new VersionedValue(OLD, 2), store.get(KEY, 4));
        assertEquals(new VersionedValue(NEW, 5), store.get(KEY, 9));
    }

    /** Collecting the tombstone must not change what a read at a still-readable snapshot returns. */
    @Test
    void aDeletedKeyReadsAsAbsentBeforeAndAfterItsTombstoneIsCollected() {
        MultiVersionStore store = new MultiVersionStore();
        store.put(KEY, OLD, 1);
        store.put(KEY, null, 3);
        store.put(Bytes.utf8("other"), NEW, 4);
        assertEquals(VersionedValue.ABSENT, store.get(KEY, 4));
        store.collectGarbage(4);
        assertEquals(VersionedValue.ABSENT, store.get(KEY, 4));
        assertEquals(1, store.versionCount());
    }

    /**
     * A commit request whose writeset names a key twice reaches every replica through the log; installing it
     * must not fail (it would stop every replica of the partition). The later write wins.
     */
    @Test
    void aTransactionWritingAKeyTwiceKeepsItsLastWrite() {
        MultiVersionStore store = new MultiVersionStore();
        store.put(KEY, OLD, 1);
        store.put(KEY, NEW, 1);
        assertEquals(new VersionedValue(NEW, 1), store.get(KEY, 1));
        store.put(KEY, OLD, 2);
        store.put(KEY, null, 2);
        assertEquals(VersionedValue.ABSENT, store.get(KEY, 2));
        store.collectGarbage(2);
        assertEquals(0, store.versionCount(), "the replacing tombstone is collected like any other");
        assertEquals(0, store.keyCount());
    }

    @Test
    void readsBelowTheHorizonFailNamingTheOldestReadableSnapshot() {
        MultiVersionStore store = new MultiVersionStore();
        store.put(KEY, OLD, 1);
        store.put(KEY, NEW, 6);
        store.collectGarbage(5);
        SnapshotTooOldException error = assertThrows(SnapshotTooOldException.class, () -> store.get(KEY, 4));
        assertEquals("snapshot 4 is too old: the oldest readable snapshot is 5", error.getMessage());
        assertEquals(new VersionedValue(OLD, 1), store.get(KEY, 5));
    }
}
