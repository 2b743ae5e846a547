package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteWriter;
import javax.annotation.Nullable;

/**
 * The versions of one key, oldest first, indexed {@code 0 .. size-1}. A {@code null} value is a deletion
 * (tombstone).
 *
 * <p>The newest two versions are fields of the chain itself; older ones wait in a ring over parallel arrays whose
 * length is a power of two, allocated only while there are any. A key of a large store holds one version, or two
 * while the one it shadows is still readable ({@code engine.snapshots-retained} behind {@code SC}), so an install and
 * the collection after it touch the chain's own memory and nothing beyond it: on a store of a million keys each further
 * object is one more cache miss (docs/performance.md, "Version chains hold their newest two versions"). A key written
 * often holds many versions; installs add at the newest end, collection removes at the oldest, and neither moves the
 * versions in between, so collection costs what it removes, not the chain's length.
 *
 * <p>A value of at most {@link #INLINE_MAX} bytes (a counter, a flag, an id, the 4-byte values of the papers'
 * workloads) is held in a {@code long}, of the chain or of its ring, rather than as an array of its own. Such an
 * install stores no reference: it leaves the card of the (old) chain or ring clean for G1, which would otherwise scan
 * every chain written since its last young collection, and it leaves no array to copy through the young generation
 * and promote (docs/performance.md, "Small values inside their chains"). Larger values keep their arrays.
 */
final class VersionChain {
    /** The ring's capacity when a version first stops being one of the newest two. */
    private static final int OLDER_CAPACITY_MIN = 4;

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
    /**
     * The versions older than those two, {@code size - 2} of them: at ring place {@code p}, the version at {@code 2p}
     * and its value's bits at {@code 2p + 1}, one cache line for both; null while none. Null, not a shared empty array:
     * a million chains pointing at one array would each be a reference G1 tracks into that array's region.
     */
    @Nullable
    private long[] older;
    /** The forms of the ring's values, one per place: its length is the ring's capacity. Null while none. */
    @Nullable
    private byte[] olderForms;
    /**
     * The ring's values held in arrays, at the same places; null until the ring holds one (most rings hold only
     * inline values and deletions). Elements are null except for values in arrays.
     */
    @Nullable
    private byte[][] olderArrays;
    /** The array slot of the oldest version in the ring. */
    private int olderHead;

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
        copy.size = size;
        if (olderCount() > 0) {
            copy.unwrapFrom(this, olderForms().length);
        }
        return copy;
    }

    int size() {
        return size;
    }

    /** Reads this chain's key and its ring's headers, as an install or a collection will (see ChainTable.touch). */
    int touch() {
        long[] versions = older;
        byte[] forms = olderForms;
        return hash + key.size() + (versions == null ? 0 : versions.length) + (forms == null ? 0 : forms.length);
    }

    /** How many versions the ring holds: those older than the newest two. */
    private int olderCount() {
        return Math.max(0, size - 2);
    }

    long versionAt(int index) {
        checkIndex(index);
        if (index < olderCount()) {
            return older()[2 * ringSlot(index)];
        }
        return index == size - 1 ? newestVersion : previousVersion;
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
            return olderForms()[ringSlot(index)];
        }
        return index == size - 1 ? newestForm : previousForm;
    }

    /** The packed bytes of the value at {@code index} if it is inline. */
    private long bitsAt(int index) {
        if (index < olderCount()) {
            return older()[2 * ringSlot(index) + 1];
        }
        return index == size - 1 ? newestBits : previousBits;
    }

    /** The array of the value at {@code index} if it is held in one, else null. */
    @Nullable
    private byte[] arrayAt(int index) {
        if (index < olderCount()) {
            byte[][] arrays = olderArrays;
            return arrays == null ? null : arrays[ringSlot(index)];
        }
        return index == size - 1 ? newestArray : previousArray;
    }

    /** Where the ring holds its {@code index}-th oldest version, {@code index < olderCount()}. */
    private int ringSlot(int index) {
        return (olderHead + index) & ((older().length >> 1) - 1); // of the array a version's read needs anyway
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
        if (size >= 2) {
            pushOlder(previousVersion, previousForm, previousBits, previousArray);
        }
        previousVersion = newestVersion;
        previousBits = newestBits;
        previousArray = newestArray;
        previousForm = newestForm;
        newestVersion = version;
        setNewest(value);
        size++;
    }

    /** Adds the version that stops being one of the newest two to the ring's newest end. */
    private void pushOlder(long version, byte form, long bits, @Nullable byte[] array) {
        int count = olderCount();
        byte[] forms = olderForms;
        if (forms == null) {
            older = new long[2 * OLDER_CAPACITY_MIN];
            forms = new byte[OLDER_CAPACITY_MIN];
            olderForms = forms;
            olderArrays = null;
            olderHead = 0;
        } else if (count == forms.length) {
            resizeOlder(forms.length * 2);
            forms = olderForms();
        }
        int slot = (olderHead + count) & (forms.length - 1);
        long[] longs = older();
        longs[2 * slot] = version;
        longs[2 * slot + 1] = bits;
        forms[slot] = form;
        if (form == IN_ARRAY) {
            byte[][] arrays = olderArrays;
            if (arrays == null) {
                arrays = new byte[forms.length][];
                olderArrays = arrays;
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
            int capacity = olderForms().length;
            int mask = capacity - 1;
            byte[][] arrays = olderArrays;
            if (arrays != null) {
                for (int i = 0; i < count; i++) {
                    arrays[(olderHead + i) & mask] = null;
                }
            }
            olderHead = (olderHead + count) & mask;
            size -= count;
            if (capacity >= 16 && olderCount() <= capacity / 4) {
                resizeOlder(capacity / 2); // a key that was written often and no longer is gives the room back
            }
            return;
        }
        older = null; // the ring empties: the arrays go with it
        olderForms = null;
        olderArrays = null;
        olderHead = 0;
        size -= count; // what is left is at most the newest two
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

    private long[] older() {
        long[] longs = older;
        if (longs == null) {
            throw new IllegalStateException("the chain holds no older versions");
        }
        return longs;
    }

    private byte[] olderForms() {
        byte[] forms = olderForms;
        if (forms == null) {
            throw new IllegalStateException("the chain holds no older versions");
        }
        return forms;
    }

    /** Moves the ring into arrays of {@code capacity} (a power of two, at least the ring's count), oldest first. */
    private void resizeOlder(int capacity) {
        unwrapFrom(this, capacity);
    }

    /**
     * Makes this chain's ring arrays of {@code capacity} holding {@code source}'s ring (this chain's own, or another's
     * of the same count), oldest first at place 0.
     */
    private void unwrapFrom(VersionChain source, int capacity) {
        long[] longs = unwrap(source, source.older(), new long[2 * capacity], 2);
        byte[][] arrays = source.olderArrays;
        olderArrays = arrays == null ? null : unwrap(source, arrays, new byte[capacity][], 1);
        olderForms = unwrap(source, source.olderForms(), new byte[capacity], 1);
        older = longs;
        olderHead = 0;
    }

    /**
     * Copies {@code ring}, one of {@code source}'s ring arrays, holding {@code width} elements per place, into {@code
     * out}, oldest first.
     */
    private static <A> A unwrap(VersionChain source, A ring, A out, int width) {
        int count = source.olderCount();
        int first = Math.min(count, source.olderForms().length - source.olderHead);
        System.arraycopy(ring, width * source.olderHead, out, 0, width * first);
        System.arraycopy(ring, 0, out, width * first, width * (count - first));
        return out;
    }
}
