package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteWriter;
import javax.annotation.Nullable;

/**
 * The versions of one key, oldest first, indexed {@code 0 .. size-1}. A {@code null} value is a deletion
 * (tombstone).
 *
 * <p>The newest three versions are fields of the chain itself; older ones wait in a {@link Ring} over parallel arrays
 * whose length is a power of two, allocated only while there are any. A key of a large store holds one version, or two
 * or three while those it shadows are still readable ({@code engine.snapshots-retained} behind {@code SC}), so an
 * install and the collection after it touch the chain's own memory and nothing beyond it: on a store of a million keys
 * each further object is one more cache miss, and a ring made and dropped is an allocation G1 must track from an old
 * chain (docs/performance.md, "Version chains hold their newest two versions", "A third version inside the chain"). A
 * key written often holds many versions; installs add at the newest end, collection removes at the oldest, and neither
 * moves the versions in between, so collection costs what it removes, not the chain's length.
 *
 * <p>A value of at most {@link #INLINE_MAX} bytes (a counter, a flag, an id, the 4-byte values of the papers'
 * workloads) is held in a {@code long}, of the chain or of its ring, rather than as an array of its own. Such an
 * install stores no reference: it leaves the card of the (old) chain or ring clean for G1, which would otherwise scan
 * every chain written since its last young collection, and it leaves no array to copy through the young generation
 * and promote (docs/performance.md, "Small values inside their chains"). Larger values keep their arrays.
 */
final class VersionChain {
    /** The ring's capacity when a version first stops being one of the newest three. */
    private static final int OLDER_CAPACITY_MIN = 4;

    /** The newest versions held in the chain's own fields; older ones go to the ring. */
    private static final int INLINE_VERSIONS = 3;

    /** The longest value held inside the chain, in a {@code long}. */
    static final int INLINE_MAX = Long.BYTES;

    /*
     * How each version holds its value, in its form byte: 0..INLINE_MAX is the length of a value packed in its bits
     * (little-endian), IN_ARRAY a value in its array, DELETED a tombstone (bits 0, no array).
     */
    private static final byte IN_ARRAY = -1;
    private static final byte DELETED = -2;

    /** The key whose versions these are ({@link ChainTable} finds chains by it). */
    final Bytes key;
    /** The key's hash code, so that a lookup passes over other keys' chains without reading their keys. */
    final int hash;

    private long newestVersion;

    /*
     * Values are held inline (above) or as the arrays inside their Bytes, which the chain wraps again when it is
     * read: the Bytes a value was decoded into dies young, where a million of them kept for seconds would be objects
     * every young collection copies (docs/performance.md, "One object per key").
     */
    private long newestBits;

    @Nullable
    private byte[] newestArray;

    private byte newestForm;
    /** The version before the newest, while {@code size >= 2}. */
    private long previousVersion;

    private long previousBits;

    @Nullable
    private byte[] previousArray;

    private byte previousForm = DELETED;
    /** The version before those two, while {@code size >= 3}. */
    private long thirdVersion;

    private long thirdBits;

    @Nullable
    private byte[] thirdArray;

    private byte thirdForm = DELETED;
    /**
     * The versions older than those three, {@code size - 3} of them; null while none. Null, not a shared empty ring: a
     * million chains pointing at one object would each be a reference G1 tracks into that object's region.
     */
    @Nullable
    private Ring ring;

    private int size;
    /** Where the store's {@link ChainPages} hold this chain (a copy is in no page). */
    int place;

    VersionChain(Bytes key, long version, @Nullable Bytes value) {
        this.key = key;
        this.hash = key.hashCode();
        newestVersion = version;
        setNewest(value);
        size = 1;
    }

    private VersionChain(Bytes key, int hash) {
        this.key = key;
        this.hash = hash;
    }

    /** A copy that later changes to this chain leave alone. */
    VersionChain copy() {
        VersionChain copy = new VersionChain(key, hash);
        copy.newestVersion = newestVersion;
        copy.newestBits = newestBits;
        copy.newestArray = newestArray;
        copy.newestForm = newestForm;
        copy.previousVersion = previousVersion;
        copy.previousBits = previousBits;
        copy.previousArray = previousArray;
        copy.previousForm = previousForm;
        copy.thirdVersion = thirdVersion;
        copy.thirdBits = thirdBits;
        copy.thirdArray = thirdArray;
        copy.thirdForm = thirdForm;
        copy.size = size;
        if (olderCount() > 0) {
            copy.ring = unwrapped(ring(), olderCount(), ring().capacity());
        }
        return copy;
    }

    int size() {
        return size;
    }

    /** Reads this chain's key and its ring's headers, as an install or a collection will (see ChainTable.touch). */
    int touch() {
        Ring older = ring;
        return hash + key.size() + (older == null ? 0 : older.slots.length + older.forms.length);
    }

    /** How many versions the ring holds: those older than the newest three. */
    private int olderCount() {
        return Math.max(0, size - INLINE_VERSIONS);
    }

    long versionAt(int index) {
        checkIndex(index);
        if (index < olderCount()) {
            return ring().slots[2 * ringSlot(index)];
        }
        return index == size - 1 ? newestVersion : index == size - 2 ? previousVersion : thirdVersion;
    }

    @Nullable
    Bytes valueAt(int index) {
        return wrap(rawValueAt(index));
    }

    /** The value at {@code index} as an array: the chain's own, or a new one for an inline value. */
    @Nullable
    private byte[] rawValueAt(int index) {
        return raw(formAt(index), bitsAt(index), arrayAt(index));
    }

    /** The form of the value at {@code index}: its length if inline, {@link #IN_ARRAY} or {@link #DELETED}. */
    private byte formAt(int index) {
        checkIndex(index);
        if (index < olderCount()) {
            return ring().forms[ringSlot(index)];
        }
        return index == size - 1 ? newestForm : index == size - 2 ? previousForm : thirdForm;
    }

    /** The packed bytes of the value at {@code index} if it is inline. */
    private long bitsAt(int index) {
        if (index < olderCount()) {
            return ring().slots[2 * ringSlot(index) + 1];
        }
        return index == size - 1 ? newestBits : index == size - 2 ? previousBits : thirdBits;
    }

    /** The array of the value at {@code index} if it is held in one, else null. */
    @Nullable
    private byte[] arrayAt(int index) {
        if (index < olderCount()) {
            byte[][] arrays = ring().arrays;
            return arrays == null ? null : arrays[ringSlot(index)];
        }
        return index == size - 1 ? newestArray : index == size - 2 ? previousArray : thirdArray;
    }

    /** Where the ring holds its {@code index}-th oldest version, {@code index < olderCount()}. */
    private int ringSlot(int index) {
        Ring older = ring();
        return (older.head + index) & (older.capacity() - 1);
    }

    /** Whether the version at {@code index} is a deletion. */
    private boolean isDeletedAt(int index) {
        return formAt(index) == DELETED;
    }

    /**
     * Writes the value at {@code index} as {@link ByteWriter#writeNullableBytes} writes it, without making an array
     * for an inline value: a snapshot writes every key's.
     */
    void writeValueAt(int index, ByteWriter out) {
        byte form = formAt(index);
        if (form < 0) {
            out.writeNullableBytes(wrap(arrayAt(index)));
            return;
        }
        long bits = bitsAt(index);
        out.writeBoolean(true).writeVarLong(form);
        for (int i = 0; i < form; i++) {
            out.writeByte((int) (bits >>> (8 * i)));
        }
    }

    /** Sets the newest version's value, inline if it is short enough. */
    private void setNewest(@Nullable Bytes value) {
        if (value == null) {
            newestForm = DELETED;
            newestBits = 0;
            newestArray = null;
            return;
        }
        byte[] raw = value.unsafeArray();
        if (raw.length <= INLINE_MAX) {
            newestForm = (byte) raw.length;
            newestBits = pack(raw);
            newestArray = null;
        } else {
            newestForm = IN_ARRAY;
            newestBits = 0;
            newestArray = raw;
        }
    }

    private static long pack(byte[] raw) {
        long bits = 0;
        for (int i = raw.length - 1; i >= 0; i--) {
            bits = bits << 8 | (raw[i] & 0xFFL);
        }
        return bits;
    }

    @Nullable
    private static byte[] raw(byte form, long bits, @Nullable byte[] array) {
        if (form < 0) {
            return array; // null for a deletion
        }
        byte[] raw = new byte[form];
        for (int i = 0; i < form; i++) {
            raw[i] = (byte) (bits >>> (8 * i));
        }
        return raw;
    }

    @Nullable
    private static Bytes wrap(@Nullable byte[] raw) {
        return raw == null ? null : Bytes.wrap(raw);
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("version " + index + " of a chain of " + size);
        }
    }

    long newestVersion() {
        if (size == 0) {
            throw new IllegalStateException("the chain was emptied by collection");
        }
        return newestVersion;
    }

    /** Appends a version newer than every version already here. */
    void append(long version, @Nullable Bytes value) {
        if (version <= newestVersion()) {
            throw new IllegalStateException("version " + version + " is not newer than " + newestVersion);
        }
        if (size >= INLINE_VERSIONS) {
            pushOlder(thirdVersion, thirdForm, thirdBits, thirdArray);
        }
        thirdVersion = previousVersion;
        thirdBits = previousBits;
        thirdArray = previousArray;
        thirdForm = previousForm;
        previousVersion = newestVersion;
        previousBits = newestBits;
        previousArray = newestArray;
        previousForm = newestForm;
        newestVersion = version;
        setNewest(value);
        size++;
    }

    /** Adds the version that stops being one of the newest three to the ring's newest end. */
    private void pushOlder(long version, byte form, long bits, @Nullable byte[] array) {
        int count = olderCount();
        Ring older = ring;
        if (older == null) {
            older = new Ring(OLDER_CAPACITY_MIN);
            ring = older;
        } else if (count == older.capacity()) {
            older = unwrapped(older, count, older.capacity() * 2);
            ring = older;
        }
        int slot = (older.head + count) & (older.capacity() - 1);
        older.slots[2 * slot] = version;
        older.slots[2 * slot + 1] = bits;
        older.forms[slot] = form;
        if (form == IN_ARRAY) {
            byte[][] arrays = older.arrays;
            if (arrays == null) {
                arrays = new byte[older.capacity()][];
                older.arrays = arrays;
            }
            arrays[slot] = array;
        }
    }

    /** Replaces the value of the newest version (a transaction that wrote the key twice). */
    void replaceNewest(@Nullable Bytes value) {
        newestVersion(); // an emptied chain has no newest version to replace
        setNewest(value);
    }

    /** The newest version at or below {@code snapshot}; absent if it is a deletion or every version is newer. */
    VersionedValue read(long snapshot) {
        // Most reads are at recent snapshots, where the newest version answers.
        if (size > 0 && newestVersion <= snapshot) {
            return versioned(raw(newestForm, newestBits, newestArray), newestVersion);
        }
        int index = indexAtOrBelow(snapshot);
        return index < 0 ? VersionedValue.ABSENT : versioned(rawValueAt(index), versionAt(index));
    }

    private static VersionedValue versioned(@Nullable byte[] value, long version) {
        return value == null ? VersionedValue.ABSENT : new VersionedValue(Bytes.wrap(value), version);
    }

    /** Index of the newest version {@code <= snapshot}, or -1 if every version is newer. */
    int indexAtOrBelow(long snapshot) {
        int i = size - 1;
        while (i >= 0 && versionAt(i) > snapshot) {
            i--;
        }
        return i;
    }

    /**
     * Drops every version older than the newest version {@code <= horizon}, and that one too if it is a
     * deletion. Removes from the oldest end only, so no version is removed while an older one of the same key
     * remains (RAM-DUR Rule 4) and no read at a snapshot {@code >= horizon} changes its answer.
     *
     * @return true if the chain is now empty
     */
    boolean collectBelow(long horizon) {
        if (size == 0) {
            return true;
        }
        int keepFrom;
        if (newestVersion <= horizon) {
            // The usual case for a key not written since: everything older goes, without reading the ring.
            keepFrom = newestForm == DELETED ? size : size - 1;
        } else {
            // The horizon trails the newest versions: count the versions at or below it from the oldest end.
            int atOrBelow = 0;
            while (atOrBelow < size && versionAt(atOrBelow) <= horizon) {
                atOrBelow++;
            }
            keepFrom = atOrBelow - 1;
            if (keepFrom < 0) {
                return false;
            }
            if (isDeletedAt(keepFrom)) {
                keepFrom++;
            }
        }
        if (keepFrom > 0) {
            removeOldest(keepFrom);
        }
        return size == 0;
    }

    /** Removes the {@code count} oldest versions. */
    private void removeOldest(int count) {
        if (count < olderCount()) {
            Ring older = ring();
            int capacity = older.capacity();
            int mask = capacity - 1;
            byte[][] arrays = older.arrays;
            if (arrays != null) {
                for (int i = 0; i < count; i++) {
                    arrays[(older.head + i) & mask] = null;
                }
            }
            older.head = (older.head + count) & mask;
            size -= count;
            if (capacity >= 16 && olderCount() <= capacity / 4) {
                // a key that was written often and no longer is gives the room back
                ring = unwrapped(older, olderCount(), capacity / 2);
            }
            return;
        }
        ring = null; // the ring empties: its arrays go with it
        size -= count; // what is left is at most the newest three
        if (size <= 2) {
            thirdVersion = 0;
            thirdBits = 0;
            thirdArray = null;
            thirdForm = DELETED;
        }
        if (size <= 1) {
            previousVersion = 0;
            previousBits = 0;
            previousArray = null;
            previousForm = DELETED;
        }
        if (size == 0) {
            newestVersion = 0;
            newestBits = 0;
            newestArray = null;
            newestForm = DELETED;
        }
    }

    private Ring ring() {
        Ring older = ring;
        if (older == null) {
            throw new IllegalStateException("the chain holds no older versions");
        }
        return older;
    }

    /**
     * A ring of {@code capacity} places (a power of two, at least {@code count}) holding the {@code count} versions of
     * {@code source}, oldest first at place 0.
     */
    private static Ring unwrapped(Ring source, int count, int capacity) {
        Ring out = new Ring(capacity);
        unwrap(source, count, source.slots, out.slots, 2);
        unwrap(source, count, source.forms, out.forms, 1);
        if (source.arrays != null) {
            out.arrays = new byte[capacity][];
            unwrap(source, count, source.arrays, out.arrays, 1);
        }
        return out;
    }

    /**
     * Copies {@code from}, one of {@code source}'s arrays holding {@code width} elements per place, into {@code to},
     * its {@code count} versions oldest first.
     */
    private static void unwrap(Ring source, int count, Object from, Object to, int width) {
        int first = Math.min(count, source.capacity() - source.head);
        System.arraycopy(from, width * source.head, to, 0, width * first);
        System.arraycopy(from, 0, to, width * first, width * (count - first));
    }

    /**
     * The versions of a chain older than its newest three, in parallel arrays whose length is a power of two: the
     * chain's own fields hold a reference to this one object rather than to each array, which keeps every chain of a
     * large store 12 bytes smaller, while only keys written again and again reach a ring at all.
     */
    private static final class Ring {
        /** At place {@code p}, the version at {@code 2p} and its value's bits at {@code 2p + 1}, one cache line for both. */
        final long[] slots;
        /** The forms of the values, one per place: its length is the capacity. */
        final byte[] forms;
        /**
         * The values held in arrays, at the same places; null until the ring holds one (most rings hold only inline
         * values and deletions). Elements are null except for values in arrays.
         */
        @Nullable
        byte[][] arrays;
        /** The place of the oldest version. */
        int head;

        Ring(int capacity) {
            slots = new long[2 * capacity];
            forms = new byte[capacity];
        }

        int capacity() {
            return forms.length;
        }
    }
}
