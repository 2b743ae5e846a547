package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SeededRuns;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The store answers every read and scan at or above its horizon as a map of full version histories does. */
class MultiVersionStoreAgainstNaiveTest {
    @Test
    void readsAtOrAboveTheHorizonMatchTheFullHistory() {
        SeededRuns.forSeeds(6_000, 300, random -> run(random, 2 + random.nextInt(30), 600));
    }

    private static void run(Random random, int keySpace, int steps) {
        MultiVersionStore store = new MultiVersionStore();
        NaiveVersionHistory naive = new NaiveVersionHistory();
        long version = 0;
        long horizon = 0;
        for (int step = 0; step < steps; step++) {
            int roll = random.nextInt(10);
            if (roll < 4) {
                version += 1 + random.nextInt(3); // numbers that wrote nothing here leave gaps
                int writes = 1 + random.nextInt(3);
                for (int i = 0; i < writes; i++) {
                    Bytes key = key(random, keySpace); // the same key twice in a transaction: the last wins
                    Bytes value = random.nextInt(4) == 0 ? null : Bytes.utf8("v" + version + "." + i);
                    store.put(key, value, version);
                    naive.put(key, value, version);
                }
            } else if (roll == 4) {
                long requested = horizon + random.nextInt(6);
                store.collectGarbage(requested);
                horizon = Math.max(horizon, Math.min(requested, version));
                assertEquals(horizon, store.horizon());
                assertVersionsBounded(naive, store, horizon);
            } else if (roll == 5 && random.nextInt(10) == 0) {
                store = roundTrip(store);
            } else if (roll >= 8) {
                KeyRange range = range(random, keySpace);
                int limit = 1 + random.nextInt(keySpace + 2);
                boolean descending = random.nextBoolean();
                long snapshot = horizon + random.nextInt((int) (version - horizon) + 3);
                ScanResult expected = naive.scan(range, limit, descending, snapshot);
                assertEquals(
                        expected, store.scan(range, limit, descending, snapshot), "scan " + range + " at " + snapshot);
            } else {
                Bytes key = key(random, keySpace);
                long snapshot = horizon + random.nextInt((int) (version - horizon) + 3);
                assertEquals(naive.get(key, snapshot), store.get(key, snapshot), "read " + key + " at " + snapshot);
                if (horizon > 0) {
                    long tooOld = random.nextInt((int) horizon);
                    MultiVersionStore current = store;
                    SnapshotTooOldException error =
                            assertThrows(SnapshotTooOldException.class, () -> current.get(key, tooOld));
                    assertEquals(horizon, error.oldestReadable());
                }
            }
        }
        store.collectGarbage(version);
        assertVersionsBounded(naive, store, version);
        assertTrue(store.versionCount() <= keySpace, "at most one version per key once everything is collected");
    }

    private static void assertVersionsBounded(NaiveVersionHistory naive, MultiVersionStore store, long horizon) {
        long held = store.versionCount();
        assertTrue(held >= naive.versionsNeededLeast(horizon), "lost versions: " + held);
        assertTrue(held <= naive.versionsNeededMost(horizon), "kept collectable versions: " + held);
    }

    /** A range over the test's keys ("k0" .. "kN"), sometimes a prefix, sometimes open-ended. */
    static KeyRange range(Random random, int keySpace) {
        return switch (random.nextInt(4)) {
            case 0 -> KeyRange.prefix(Bytes.utf8("k" + random.nextInt(Math.min(10, keySpace))));
            case 1 -> new KeyRange(Bytes.utf8("k" + random.nextInt(keySpace)), null);
            default -> {
                Bytes from = Bytes.utf8("k" + random.nextInt(keySpace));
                Bytes to = Bytes.utf8("k" + random.nextInt(keySpace) + "~");
                yield from.compareTo(to) < 0 ? new KeyRange(from, to) : new KeyRange(to, KeyRange.successor(from));
            }
        };
    }

    private static Bytes key(Random random, int keySpace) {
        return Bytes.utf8("k" + random.nextInt(keySpace));
    }

    private static MultiVersionStore roundTrip(MultiVersionStore store) {
        ByteWriter out = new ByteWriter();
        store.writeTo(out);
        ByteReader in = new ByteReader(out.toByteArray());
        MultiVersionStore restored = MultiVersionStore.readFrom(in);
        in.expectEnd("store");
        assertEquals(store.horizon(), restored.horizon());
        assertEquals(store.newestVersion(), restored.newestVersion());
        assertEquals(store.versionCount(), restored.versionCount());
        assertEquals(store.keyCount(), restored.keyCount());
        ByteWriter again = new ByteWriter();
        restored.writeTo(again);
        assertEquals(Bytes.wrap(out.toByteArray()), Bytes.wrap(again.toByteArray()), "re-encoding differs");
        return restored;
    }
}
