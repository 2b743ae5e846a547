package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.VersionedValue;
import java.util.Arrays;
import javax.annotation.Nullable;

/** The versions of one key, oldest first. A {@code null} value is a deletion (tombstone). */
final class VersionChain {
    private long[] versions;
    /** Elements are null for deletions. */
    private Bytes[] values;

    private int size;

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
        return new VersionChain(Arrays.copyOf(versions, size), Arrays.copyOf(values, size), size);
    }

    int size() {
        return size;
    }

    long versionAt(int index) {
        return versions[index];
    }

    @Nullable
    Bytes valueAt(int index) {
        return values[index];
    }

    long newestVersion() {
        return versions[size - 1];
    }

    /** Appends a version newer than every version already here. */
    void append(long version, @Nullable Bytes value) {
        if (version <= newestVersion()) {
            throw new IllegalStateException("version " + version + " is not newer than " + newestVersion());
        }
        if (size == versions.length) {
            int capacity = size * 2;
            versions = Arrays.copyOf(versions, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        versions[size] = version;
        values[size] = value;
        size++;
    }

    /** Replaces the value of the newest version (a transaction that wrote the key twice). */
    void replaceNewest(@Nullable Bytes value) {
        values[size - 1] = value;
    }

    /** The newest version at or below {@code snapshot}; absent if it is a deletion or every version is newer. */
    VersionedValue read(long snapshot) {
        int index = indexAtOrBelow(snapshot);
        if (index < 0) {
            return VersionedValue.ABSENT;
        }
        Bytes value = values[index];
        return value == null ? VersionedValue.ABSENT : new VersionedValue(value, versions[index]);
    }

    /** Index of the newest version {@code <= snapshot}, or -1 if every version is newer. */
    int indexAtOrBelow(long snapshot) {
        // Most reads are at recent snapshots: scan from the newest end, which is usually one step.
        int i = size - 1;
        while (i >= 0 && versions[i] > snapshot) {
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
        int keepFrom = indexAtOrBelow(horizon);
        if (keepFrom < 0) {
            return false;
        }
        if (values[keepFrom] == null) {
            keepFrom++;
        }
        if (keepFrom == 0) {
            return false;
        }
        int remaining = size - keepFrom;
        System.arraycopy(versions, keepFrom, versions, 0, remaining);
        System.arraycopy(values, keepFrom, values, 0, remaining);
        Arrays.fill(values, remaining, size, null);
        size = remaining;
        return size == 0;
    }
}
