package dev.duro.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.SeededRuns;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Edge cases of values held inside a chain that {@link VersionChainTest} reaches only by chance: values of exactly 0, 8
 * and 9 bytes, all zero or with the high bit set, in every part of the chain (newest, previous, ring); a replaced
 * newest version through every pair of forms; reads at every snapshot, below the oldest version too; copies mutated
 * independently of their originals; and the ring never keeping an array it no longer holds a value in.
 */
class VersionChainEdgeCaseTest {
    private static final Bytes KEY = Bytes.utf8("key");

    /** Values at the edges of the inline form, and a tombstone. */
    private static final List<Bytes> EDGES = edges();

    private static List<Bytes> edges() {
        List<Bytes> out = new ArrayList<>();
        out.add(null);
        out.add(Bytes.EMPTY);
        out.add(Bytes.wrap(new byte[0]));
        for (int length : new int[] {1, 2, 7, 8, 9, 16}) {
            out.add(Bytes.wrap(new byte[length])); // all zero: only the length tells them apart
            out.add(filled(length, (byte) 0xFF));
            out.add(filled(length, (byte) 0x80));
            byte[] highLast = new byte[length];
            highLast[length - 1] = (byte) 0x80; // sign bit of the packed long when length 8
            out.add(Bytes.wrap(highLast));
            byte[] counting = new byte[length];
            for (int i = 0; i < length; i++) {
                counting[i] = (byte) (0x7F + i * 0x11);
            }
            out.add(Bytes.wrap(counting));
        }
        return out;
    }

    private static Bytes filled(int length, byte b) {
        byte[] raw = new byte[length];
        Arrays.fill(raw, b);
        return Bytes.wrap(raw);
    }

    @Test
    void everyEdgeValueReadsAndWritesBackInEveryPartOfTheChain() {
        for (Bytes edge : EDGES) {
            for (int position = 0; position < 12; position++) {
                // position 0 is the ring's oldest (once there are 3+ versions); the ring wraps at 4 and grows at 5
                int length = position + 1 + 3;
                VersionChain chain = null;
                TreeMap<Long, Bytes> model = new TreeMap<>();
                for (int i = 0; i < length; i++) {
                    long version = 10L * (i + 1);
                    Bytes value = i == position ? edge : filled(i % 11, (byte) (i + 1));
                    if (chain == null) {
                        if (value == null) {
                            value = Bytes.EMPTY;
                        }
                        chain = new VersionChain(KEY, version, value);
                    } else {
                        chain.append(version, value);
                    }
                    model.put(version, value);
                    assertMatches(model, chain);
                }
                VersionChain copy = chain.copy();
                TreeMap<Long, Bytes> copied = new TreeMap<>(model);
                // collect one version at a time from the oldest end, through the edge value
                for (long horizon = 10; horizon <= 10L * length; horizon += 10) {
                    boolean emptied = chain.collectBelow(horizon);
                    collect(model, horizon);
                    assertEquals(model.isEmpty(), emptied);
                    assertMatches(model, chain);
                    assertMatches(copied, copy);
                }
            }
        }
    }

    @Test
    void replaceNewestThroughEveryPairOfForms() {
        for (int size = 1; size <= 7; size++) {
            for (Bytes a : EDGES) {
                for (Bytes b : EDGES) {
                    VersionChain chain = new VersionChain(KEY, 1, filled(9, (byte) 1));
                    TreeMap<Long, Bytes> model = new TreeMap<>();
                    model.put(1L, filled(9, (byte) 1));
                    for (long v = 2; v <= size; v++) {
                        Bytes filler = v % 2 == 0 ? filled(3, (byte) v) : filled(12, (byte) v);
                        chain.append(v, filler);
                        model.put(v, filler);
                    }
                    VersionChain before = chain.copy();
                    TreeMap<Long, Bytes> beforeModel = new TreeMap<>(model);
                    long newest = model.lastKey();
                    chain.replaceNewest(a);
                    model.put(newest, a);
                    assertMatches(model, chain);
                    chain.replaceNewest(b);
                    model.put(newest, b);
                    assertMatches(model, chain);
                    assertMatches(beforeModel, before);
                    // the replaced value moves to previous, then into the ring, as it is
                    for (long v = newest + 1; v <= newest + 3; v++) {
                        chain.append(v, a);
                        model.put(v, a);
                        assertMatches(model, chain);
                    }
                    // the horizon at the replaced version: a tombstone there goes with everything older
                    boolean emptied = chain.collectBelow(newest);
                    collect(model, newest);
                    assertEquals(model.isEmpty(), emptied);
                    assertMatches(model, chain);
                }
            }
        }
    }

    @Test
    void aTombstoneAtTheNewestIsCollectedWithTheRingAtOnce() {
        VersionChain chain = new VersionChain(KEY, 1, filled(20, (byte) 3));
        for (long v = 2; v <= 40; v++) {
            chain.append(v, v % 3 == 0 ? filled(20, (byte) v) : filled((int) (v % 9), (byte) -v));
        }
        chain.append(41, null);
        assertTrue(chain.collectBelow(41));
        assertEquals(0, chain.size());
        assertThrows(IllegalStateException.class, chain::newestVersion);
        assertThrows(IllegalStateException.class, () -> chain.append(42, Bytes.EMPTY));
        assertThrows(IllegalStateException.class, () -> chain.replaceNewest(Bytes.EMPTY));
        assertEquals(VersionedValue.ABSENT, chain.read(Long.MAX_VALUE));
        assertTrue(chain.collectBelow(100));
        assertNull(field(chain, "ring"));
        assertNull(field(chain, "newestArray"));
        assertNull(field(chain, "previousArray"));
        assertNull(field(chain, "thirdArray"));
    }

    @Test
    void indicesOutsideTheChainAreRefused() {
        VersionChain chain = new VersionChain(KEY, 1, Bytes.EMPTY);
        for (long v = 2; v <= 9; v++) {
            chain.append(v, v % 2 == 0 ? null : filled(9, (byte) v));
        }
        int size = chain.size();
        assertThrows(IndexOutOfBoundsException.class, () -> chain.versionAt(size));
        assertThrows(IndexOutOfBoundsException.class, () -> chain.versionAt(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> chain.valueAt(size));
        assertThrows(IndexOutOfBoundsException.class, () -> chain.valueAt(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> chain.writeValueAt(size, new ByteWriter()));
        assertThrows(IndexOutOfBoundsException.class, () -> chain.writeValueAt(-1, new ByteWriter()));
    }

    /**
     * Random operations against a TreeMap, with values drawn mostly from the edges; several copies live at once and
     * are themselves appended to and collected, each against its own model.
     */
    @Test
    void matchesATreeMapWithCopiesMutatedIndependently() {
        SeededRuns.forSeeds(41_000, 60, random -> run(random, 300));
    }

    private static void run(Random random, int steps) {
        Bytes first = value(random);
        if (first == null) {
            first = Bytes.EMPTY;
        }
        List<VersionChain> chains = new ArrayList<>();
        List<TreeMap<Long, Bytes>> models = new ArrayList<>();
        chains.add(new VersionChain(KEY, 1, first));
        TreeMap<Long, Bytes> initial = new TreeMap<>();
        initial.put(1L, first);
        models.add(initial);
        for (int step = 0; step < steps; step++) {
            int which = random.nextInt(chains.size());
            VersionChain chain = chains.get(which);
            TreeMap<Long, Bytes> model = models.get(which);
            if (model.isEmpty()) {
                chains.remove(which);
                models.remove(which);
                if (chains.isEmpty()) {
                    return;
                }
                continue;
            }
            int roll = random.nextInt(20);
            if (roll < 9) {
                int burst = random.nextInt(10) == 0 ? 20 + random.nextInt(100) : 1 + random.nextInt(4);
                for (int n = 0; n < burst; n++) {
                    long version = model.lastKey() + 1 + random.nextInt(2);
                    Bytes value = value(random);
                    chain.append(version, value);
                    model.put(version, value);
                }
            } else if (roll < 14) {
                long oldest = model.firstKey();
                long newest = model.lastKey();
                long horizon;
                switch (random.nextInt(4)) {
                    case 0 -> horizon = newest; // at the newest
                    case 1 -> horizon = oldest - 1; // below everything: nothing goes
                    case 2 -> { // exactly at a version inside the chain
                        List<Long> keys = new ArrayList<>(model.keySet());
                        horizon = keys.get(random.nextInt(keys.size()));
                    }
                    default -> horizon = oldest + random.nextLong(newest - oldest + 3);
                }
                boolean emptied = chain.collectBelow(horizon);
                collect(model, horizon);
                assertEquals(model.isEmpty(), emptied, "emptied at horizon " + horizon);
            } else if (roll < 17) {
                Bytes value = value(random);
                chain.replaceNewest(value);
                model.put(model.lastKey(), value);
            } else if (chains.size() < 6) {
                chains.add(chain.copy());
                models.add(new TreeMap<>(model));
            }
            for (int i = 0; i < chains.size(); i++) {
                assertMatches(models.get(i), chains.get(i));
            }
        }
    }

    /** An edge value most of the time, else a random one of up to 12 bytes. */
    private static Bytes value(Random random) {
        if (random.nextInt(3) > 0) {
            return EDGES.get(random.nextInt(EDGES.size()));
        }
        byte[] raw = new byte[random.nextInt(13)];
        random.nextBytes(raw);
        return Bytes.wrap(raw);
    }

    /** Collection's rule on the model: from the newest version at or below the horizon on, without it if deleted. */
    private static void collect(TreeMap<Long, Bytes> model, long horizon) {
        Map.Entry<Long, Bytes> keep = model.floorEntry(horizon);
        if (keep == null) {
            return;
        }
        model.headMap(keep.getKey(), keep.getValue() == null).clear();
    }

    private static void assertMatches(TreeMap<Long, Bytes> model, VersionChain chain) {
        assertEquals(model.size(), chain.size(), "size");
        List<Map.Entry<Long, Bytes>> entries = new ArrayList<>(model.entrySet());
        for (int i = 0; i < entries.size(); i++) {
            long version = entries.get(i).getKey();
            Bytes value = entries.get(i).getValue();
            assertEquals(version, chain.versionAt(i), "version at " + i);
            assertEquals(value, chain.valueAt(i), "value at " + i);
            ByteWriter out = new ByteWriter();
            chain.writeValueAt(i, out);
            byte[] written = out.toByteArray();
            assertArrayEquals(new ByteWriter().writeNullableBytes(value).toByteArray(), written, "written at " + i);
            ByteReader reader = new ByteReader(written);
            assertEquals(value, reader.readNullableBytes(), "read back at " + i);
            assertEquals(0, reader.remaining(), "trailing bytes at " + i);
            // every read at this version and just below it
            assertEquals(expected(model, version), chain.read(version), "read at " + version);
            assertEquals(expected(model, version - 1), chain.read(version - 1), "read at " + (version - 1));
            assertEquals(i, chain.indexAtOrBelow(version), "index at " + version);
        }
        if (model.isEmpty()) {
            assertEquals(VersionedValue.ABSENT, chain.read(Long.MAX_VALUE));
        } else {
            assertEquals(model.lastKey(), chain.newestVersion());
            assertEquals(expected(model, Long.MAX_VALUE), chain.read(Long.MAX_VALUE));
            assertEquals(-1, chain.indexAtOrBelow(model.firstKey() - 1));
        }
        assertNoStaleArrays(chain);
    }

    private static VersionedValue expected(TreeMap<Long, Bytes> model, long snapshot) {
        Map.Entry<Long, Bytes> entry = model.floorEntry(snapshot);
        return entry == null || entry.getValue() == null
                ? VersionedValue.ABSENT
                : new VersionedValue(entry.getValue(), entry.getKey());
    }

    /**
     * The chain holds an array exactly where a value is in one: not for an inline value or a deletion, not at a ring
     * place no version occupies (a stale array would be kept alive and, were its place read as an array, returned).
     */
    private static void assertNoStaleArrays(VersionChain chain) {
        int size = chain.size();
        byte newestForm = (byte) field(chain, "newestForm");
        byte previousForm = (byte) field(chain, "previousForm");
        byte thirdForm = (byte) field(chain, "thirdForm");
        assertEquals(newestForm == -1, field(chain, "newestArray") != null, "newest array iff in an array");
        assertEquals(previousForm == -1, field(chain, "previousArray") != null, "previous array iff in an array");
        assertEquals(thirdForm == -1, field(chain, "thirdArray") != null, "third array iff in an array");
        if (size < 3) {
            assertEquals((byte) -2, thirdForm, "no third version");
        }
        if (size < 2) {
            assertEquals((byte) -2, previousForm, "no previous version");
        }
        if (size == 0) {
            assertEquals((byte) -2, newestForm, "no newest version");
        }
        Object ring = field(chain, "ring");
        int count = Math.max(0, size - 3);
        if (count == 0) {
            assertNull(ring, "no ring without older versions");
            return;
        }
        assertNotNull(ring);
        long[] older = (long[]) field(ring, "slots");
        byte[] forms = (byte[]) field(ring, "forms");
        byte[][] arrays = (byte[][]) field(ring, "arrays");
        int capacity = forms.length;
        assertEquals(0, capacity & (capacity - 1), "capacity a power of two");
        assertTrue(capacity >= count, "capacity holds the ring");
        assertEquals(2 * capacity, older.length);
        int head = (int) field(ring, "head");
        assertTrue(head >= 0 && head < capacity, "head inside the ring");
        if (arrays == null) {
            for (int i = 0; i < count; i++) {
                assertFalse(forms[(head + i) & (capacity - 1)] == -1, "a value in an array with no arrays");
            }
            return;
        }
        assertEquals(capacity, arrays.length);
        for (int slot = 0; slot < capacity; slot++) {
            boolean live = ((slot - head) & (capacity - 1)) < count;
            boolean inArray = live && forms[slot] == -1;
            assertEquals(inArray, arrays[slot] != null, "array at ring place " + slot + (live ? "" : " (free)"));
        }
    }

    private static Object field(Object owner, String name) {
        try {
            Field field = owner.getClass().getDeclaredField(name);
            field.setAccessible(true);
            return field.get(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
