package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SeededRuns;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import java.util.Random;
import javax.annotation.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A frozen image writes the store as it was when frozen, however many installs and collections happen while it is
 * written in pieces, and the live store changes exactly as a twin that was never frozen.
 */
class FrozenStoreTest {
    @Test
    void imageWrittenInPiecesIsTheStoreAtTheFreezeAndTheLiveStoreIsUntouched() {
        SeededRuns.forSeeds(31_000, 300, random -> {
            MultiVersionStore live = new MultiVersionStore();
            MultiVersionStore twin = new MultiVersionStore();
            // A few seeds hold more keys than a page of ChainPages, so that keys coming and going copy pages.
            boolean large = random.nextInt(5) == 0;
            int keySpace = large ? 1500 + random.nextInt(3000) : 2 + random.nextInt(40);
            long[] clock = {0, 0}; // version, horizon
            int before = random.nextInt(large ? 8000 : 400);
            boolean scanned = random.nextBoolean(); // the live store keeps a sorted map from its first scan on
            for (int i = 0; i < before; i++) {
                step(random, keySpace, clock, live, twin);
                if (scanned && i == before / 2) {
                    live.scan(KeyRange.ALL, 1, false, live.horizon());
                }
            }
            byte[] expected = bytesOf(twin);
            MultiVersionStore atFreeze = MultiVersionStore.readFrom(new ByteReader(expected));
            FrozenStore image = live.freeze();
            assertTrue(live.isFrozen());
            ByteWriter out = new ByteWriter();
            boolean more = true;
            while (more) {
                int steps = random.nextInt(large ? 300 : 30);
                for (int i = 0; i < steps; i++) {
                    step(random, keySpace, clock, live, twin);
                }
                assertImageReadsAsTheStoreAtTheFreeze(random, keySpace, image, atFreeze);
                more = image.writeNext(
                        out,
                        1 + random.nextInt(large ? 500 : 5),
                        random.nextBoolean() ? Long.MAX_VALUE : 1 + random.nextInt(large ? 20_000 : 200));
            }
            image.release();
            assertTrue(!live.isFrozen());

            assertArrayEquals(expected, out.toByteArray(), "the image is the store at the freeze");
            assertArrayEquals(expected, bytesOf(MultiVersionStore.readFrom(new ByteReader(out.toByteArray()))));
            assertArrayEquals(bytesOf(twin), bytesOf(live), "the live store is as if it had never been frozen");
            assertEquals(twin.versionCount(), live.versionCount());
            assertEquals(twin.keyCount(), live.keyCount());
        });
    }

    /**
     * The keys are written in the order of the store's pages, which is a function of what the store was given: a
     * store read back from a snapshot takes its places in the order written, so it and its source write the same bytes
     * after any same installs and collections (keys created, and keys removed, whose places the last key takes).
     * Replicas that delivered the same log therefore write the same snapshots, whichever of them restored from one.
     */
    @Test
    void aStoreReadBackWritesWhatItsSourceWritesAfterTheSameSteps() {
        SeededRuns.forSeeds(32_000, 200, random -> {
            MultiVersionStore source = new MultiVersionStore();
            MultiVersionStore unused = new MultiVersionStore(); // step() feeds two stores; only one exists yet
            int keySpace = random.nextInt(4) == 0 ? 1500 + random.nextInt(2000) : 2 + random.nextInt(60);
            long[] clock = {0, 0}; // version, horizon
            int before = random.nextInt(keySpace > 1000 ? 6000 : 400);
            for (int i = 0; i < before; i++) {
                step(random, keySpace, clock, source, unused);
            }
            MultiVersionStore restored = MultiVersionStore.readFrom(new ByteReader(bytesOf(source)));
            for (int round = 0; round < 4; round++) {
                int steps = random.nextInt(keySpace > 1000 ? 2000 : 200);
                for (int i = 0; i < steps; i++) {
                    step(random, keySpace, clock, source, restored);
                }
                assertArrayEquals(bytesOf(source), bytesOf(restored), "after round " + round);
            }
            assertEquals(source.keyCount(), restored.keyCount());
        });
    }

    @Test
    void imagesOverlapAndAReleasedImageWritesNothing() {
        MultiVersionStore store = new MultiVersionStore();
        store.put(Bytes.utf8("k"), Bytes.utf8("v1"), 1);
        store.put(Bytes.utf8("k"), Bytes.utf8("v2"), 2);
        byte[] atTwo = bytesOf(store);
        FrozenStore first = store.freeze();
        store.put(Bytes.utf8("k"), Bytes.utf8("v3"), 3);
        byte[] atThree = bytesOf(store); // writing the live store opens and closes an image of its own
        FrozenStore second = store.freeze();
        store.collectGarbage(3);
        first.release();
        assertTrue(store.isFrozen(), "the second image is still open");
        ByteWriter out = new ByteWriter();
        while (second.writeNext(out, 1, Long.MAX_VALUE)) {
            // piece by piece
        }
        second.release();
        second.release(); // a second release does nothing
        assertTrue(!store.isFrozen());
        assertArrayEquals(atThree, out.toByteArray());
        assertTrue(atTwo.length != atThree.length);
        assertThrows(IllegalStateException.class, () -> first.writeNext(new ByteWriter(), 10, Long.MAX_VALUE));
    }

    @Test
    void aPartStopsAtTheItemThatCrossesItsByteBound() {
        MultiVersionStore store = new MultiVersionStore();
        byte[] value = new byte[1000];
        for (int i = 0; i < 10; i++) {
            store.put(Bytes.utf8("key-" + i), Bytes.wrap(value), i + 1);
        }
        FrozenStore image = store.freeze();
        ByteWriter out = new ByteWriter();
        assertTrue(image.writeNext(out, 100, 2500), "ten values of 1,000 bytes do not fit in 2,500 bytes");
        long first = out.size();
        assertTrue(first >= 2500 && first < 2500 + 1100, "one item past the bound at most: " + first);
        int parts = 1;
        boolean more = true;
        while (more) {
            more = image.writeNext(out, 100, 2500);
            parts++;
        }
        image.release();
        assertEquals(4, parts, "three items per part: 3 + 3 + 3 + 1");
        assertArrayEquals(bytesOf(store), out.toByteArray());
    }

    private static void assertImageReadsAsTheStoreAtTheFreeze(
            Random random, int keySpace, FrozenStore image, MultiVersionStore atFreeze) {
        long snapshot = image.horizon() + random.nextInt((int) (image.newestVersion() - image.horizon()) + 1);
        KeyRange range = MultiVersionStoreAgainstNaiveTest.range(random, keySpace);
        int limit = 1 + random.nextInt(keySpace + 1);
        boolean descending = random.nextBoolean();
        assertEquals(atFreeze.scan(range, limit, descending, snapshot), image.scan(range, limit, descending, snapshot));
        Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
        assertEquals(atFreeze.get(key, snapshot), image.get(key, snapshot));
    }

    /** One install or collection, the same at both stores. */
    private static void step(
            Random random, int keySpace, long[] clock, MultiVersionStore live, MultiVersionStore twin) {
        if (random.nextInt(4) > 0) {
            clock[0] += 1 + random.nextInt(2);
            int writes = 1 + random.nextInt(3);
            for (int i = 0; i < writes; i++) {
                Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
                @Nullable Bytes value = random.nextInt(4) == 0 ? null : Bytes.utf8("v" + clock[0] + "." + i);
                live.put(key, value, clock[0]);
                twin.put(key, value, clock[0]);
            }
        } else {
            clock[1] = Math.min(clock[0], clock[1] + random.nextInt(8));
            live.collectGarbage(clock[1]);
            twin.collectGarbage(clock[1]);
        }
    }

    private static byte[] bytesOf(MultiVersionStore store) {
        ByteWriter out = new ByteWriter();
        store.writeTo(out);
        return out.toByteArray();
    }
}
