package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.VersionedValue;
import javax.annotation.Nullable;

/**
 * The versions of one key, oldest first, indexed {@code 0 .. size-1}. A {@code null} value is a deletion
 * (tombstone).
 *
 * <p>A ring over two arrays whose length is a power of two: installs add at the newest end, collection removes at
 * the oldest, and neither moves the versions in between. A key written often holds many versions (every one newer
 * than the horizon, which trails {@code SC} by {@code engine.snapshots-retained}); collection finds the versions it
 * may drop by walking from the oldest end, where they are, so its cost is what it removes, not the chain's length
 * (docs/performance.md, "Version chains as rings").
 */
final class VersionChain {
    private long[] versions;
    /** Elements are null for deletions, and outside the ring. */
    private Bytes[] values;
    /** The array slot of the oldest version. */
    private int head;

    private int size;
    /** Where the store's {@link ChainPages} hold this chain (a copy is in no page). */
    int place;

    VersionChain(long version, @Nullable Bytes value) {
        versions = new long[] {version};
        values = new Bytes[] {value};
        size = 1;
    }

    private VersionChain(long[] versions, Bytes[] values, int size) {
        this.versions = versions;
        this.values = values;
        this.size = size;
    }

    /** A copy that later changes to this chain leave alone. */
    VersionChain copy() {
        int capacity = size <= 1 ? 1 : Integer.highestOneBit(size - 1) << 1;
        return new VersionChain(unwrap(versions, new long[capacity]), unwrap(values, new Bytes[capacity]), size);
    }

    int size() {
        return size;
    }

    private int slot(int index) {
        return (head + index) & (versions.length - 1);
    }

    long versionAt(int index) {
        return versions[slot(index)];
    }

    @Nullable
    Bytes valueAt(int index) {
        return values[slot(index)];
    }

    long newestVersion() {
        if (size == 0) {
            throw new IllegalStateException("the chain was emptied by collection");
        }
        return versions[slot(size - 1)];
    }

    /** Appends a version newer than every version already here. */
    void append(long version, @Nullable Bytes value) {
        if (version <= newestVersion()) {
            throw new IllegalStateException("version " + version + " is not newer than " + newestVersion());
        }
        if (size == versions.length) {
            resize(versions.length * 2);
        }
        int slot = slot(size);
        versions[slot] = version;
        values[slot] = value;
        size++;
    }

    /** Replaces the value of the newest version (a transaction that wrote the key twice). */
    void replaceNewest(@Nullable Bytes value) {
        values[slot(size - 1)] = value;
    }

    /** The newest version at or below {@code snapshot}; absent if it is a deletion or every version is newer. */
    VersionedValue read(long snapshot) {
        int index = indexAtOrBelow(snapshot);
        if (index < 0) {
            return VersionedValue.ABSENT;
        }
        Bytes value = valueAt(index);
        return value == null ? VersionedValue.ABSENT : new VersionedValue(value, versionAt(index));
    }

    /** Index of the newest version {@code <= snapshot}, or -1 if every version is newer. */
    int indexAtOrBelow(long snapshot) {
        // Most reads are at recent snapshots: scan from the newest end, which is usually one step.
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
        // The horizon trails the newest versions: count the versions at or below it from the oldest end.
        int atOrBelow = 0;
        while (atOrBelow < size && versionAt(atOrBelow) <= horizon) {
            atOrBelow++;
        }
        int keepFrom = atOrBelow - 1;
        if (keepFrom < 0) {
            return false;
        }
        if (valueAt(keepFrom) == null) {
            keepFrom++;
        }
        if (keepFrom == 0) {
            return false;
        }
        for (int i = 0; i < keepFrom; i++) {
            values[slot(i)] = null;
        }
        head = slot(keepFrom);
        size -= keepFrom;
        if (size > 0 && versions.length >= 8 && size <= versions.length / 4) {
            resize(versions.length / 2); // a key that was written often and no longer is gives the room back
        }
        return size == 0;
    }

    /** Moves the ring into arrays of {@code capacity} (a power of two, at least {@link #size}), oldest first. */
    private void resize(int capacity) {
        long[] newVersions = unwrap(versions, new long[capacity]);
        values = unwrap(values, new Bytes[capacity]);
        versions = newVersions; // after both copies: unwrap reads the ring's length from it
        head = 0;
    }

    /**
     * Copies the ring held in {@code ring}, one of this chain's two arrays (they have the same length), into
     * {@code out}, oldest first.
     */
    private <A> A unwrap(A ring, A out) {
        int first = Math.min(size, versions.length - head);
        System.arraycopy(ring, head, out, 0, first);
        System.arraycopy(ring, 0, out, first, size - first);
        return out;
    }
}
