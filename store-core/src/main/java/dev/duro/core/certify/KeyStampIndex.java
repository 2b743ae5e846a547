package dev.duro.core.certify;

import dev.duro.core.Bytes;

/**
 * The exact certification index: key → the numbers of the last retained transaction that wrote it and that read
 * it. An open-addressing hash table with linear probing on parallel arrays, so that recording a transaction and
 * sweeping allocate nothing per key and a lookup touches no node objects: {@code hashes[slot]} rejects most
 * mismatches without dereferencing the key, and a slot's two numbers share a cache line in {@code stamps}.
 *
 * <p>Deletion shifts the following entries of the probe run back (no tombstones), so a table that sees a
 * steady stream of inserts and removals never degrades. Which slot holds which key depends only on the sequence
 * of operations, but nothing observable depends on slots: lookups answer the same whatever the layout.
 *
 * <p>Entries are not removed one by one as the window evicts the transactions that set them: an entry whose two
 * numbers are at or below the newest evicted transaction's can no longer decide anything (every snapshot still
 * certifiable is at or above that number), so it may stay until the table fills. An insert into a half-full table
 * first sweeps such entries out in one pass over the arrays ({@link #removeStale}), and the table doubles if at least
 * a quarter of it is still in use. Either way at least a quarter of the table is free after it, so the next sweep
 * comes a quarter of the table's inserts later at the earliest: its cost spread over them is a few slots each. The
 * table never shrinks: it holds at most eight slots per entry that could decide at the busiest it has been, so at
 * most eight per key the window can hold (K transactions' keys). Entries that can no longer decide, and the key
 * objects they hold, stay until the next sweep, within those slots (docs/performance.md, "The certification index
 * swept, not pruned").
 */
final class KeyStampIndex {
    private static final int INITIAL_CAPACITY = 16;
    /** How far {@link #touch} follows a probe run (the table is at most half full). */
    private static final int TOUCH_PROBES = 4;

    /** Open-addressing table; an empty slot is null. */
    private Bytes[] keys = new Bytes[INITIAL_CAPACITY];

    private int[] hashes = new int[INITIAL_CAPACITY];
    /** Slot i's last writer at {@code 2i}, its last reader at {@code 2i + 1}. */
    private long[] stamps = new long[2 * INITIAL_CAPACITY];

    private int size;

    int size() {
        return size;
    }

    /** The slot holding {@code key}, or -1. */
    int find(Bytes key) {
        int hash = key.hashCode();
        int mask = keys.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            Bytes present = keys[slot];
            if (present == null) {
                return -1;
            }
            if (present == key || (hashes[slot] == hash && present.equals(key))) {
                return slot;
            }
        }
    }

    /**
     * Reads what a lookup of {@code key} will read (see CertificationWindow.touchNext): the probe run from its home slot
     * to the first entry with the key's hash or an empty slot, at most {@link #TOUCH_PROBES} slots, and there the
     * entry's stamps and, for an entry with the key's hash, its key object and bytes, which the lookup compares.
     */
    int touch(Bytes key) {
        int hash = key.hashCode();
        Bytes[] table = keys;
        int mask = table.length - 1;
        int slot = hash & mask;
        for (int probe = 0; probe < TOUCH_PROBES; probe++, slot = (slot + 1) & mask) {
            Bytes present = table[slot];
            if (present == null) {
                return (int) stamps[2 * slot];
            }
            if (hashes[slot] == hash) {
                return (int) stamps[2 * slot] + present.size();
            }
        }
        return 0;
    }

    /** The slot holding {@code key}, inserting it with both numbers 0 if absent; removes no entry (tests). */
    int findOrInsert(Bytes key) {
        return findOrInsert(key, KeyInterner.AS_GIVEN, -1);
    }

    /**
     * The slot holding {@code key}, inserting {@code interner}'s object for it with both numbers 0 if absent. When the
     * table is half full it first removes the entries whose numbers are both at or below {@code stale} (none while
     * {@code stale} is below 1: every entry holds a transaction's number, 1 or more, once its caller has set it), and
     * doubles if at least a quarter of it is still in use. Slots returned earlier are then no longer valid.
     */
    int findOrInsert(Bytes key, KeyInterner interner, long stale) {
        if (size >= keys.length >> 1) {
            if (stale > 0) {
                removeStale(stale);
            }
            if (size >= keys.length >> 2) {
                resize(keys.length << 1);
            }
        }
        int hash = key.hashCode();
        int mask = keys.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            Bytes present = keys[slot];
            if (present == null) {
                keys[slot] = interner.intern(key);
                hashes[slot] = hash;
                stamps[2 * slot] = 0;
                stamps[2 * slot + 1] = 0;
                size++;
                return slot;
            }
            if (present == key || (hashes[slot] == hash && present.equals(key))) {
                return slot;
            }
        }
    }

    /** The key object the entry at {@code slot} holds. */
    Bytes keyAt(int slot) {
        return keys[slot];
    }

    long lastWrite(int slot) {
        return stamps[2 * slot];
    }

    long lastRead(int slot) {
        return stamps[2 * slot + 1];
    }

    void setLastWrite(int slot, long number) {
        stamps[2 * slot] = number;
    }

    void setLastRead(int slot, long number) {
        stamps[2 * slot + 1] = number;
    }

    /** Removes the entry at {@code slot}, moving back later entries of its probe run that may fill the hole. */
    void removeAt(int slot) {
        int mask = keys.length - 1;
        int hole = slot;
        for (int next = (hole + 1) & mask; keys[next] != null; next = (next + 1) & mask) {
            int home = hashes[next] & mask;
            // The entry at next may move into the hole iff its home is not cyclically within (hole, next].
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                keys[hole] = keys[next];
                hashes[hole] = hashes[next];
                stamps[2 * hole] = stamps[2 * next];
                stamps[2 * hole + 1] = stamps[2 * next + 1];
                hole = next;
            }
        }
        keys[hole] = null;
        size--;
    }

    /**
     * Removes every entry whose last write and last read are both at or below {@code stale}, in one pass. The pass
     * starts after an empty slot, so no probe run crosses its start, and looks at a slot again after removing its
     * entry: the entries {@link #removeAt} moves back land at or after that slot, never before it.
     *
     * @return how many were removed
     */
    int removeStale(long stale) {
        int mask = keys.length - 1;
        int start = 0;
        while (keys[start] != null) {
            start++; // the table is at most half full: an empty slot exists
        }
        int removed = 0;
        for (int step = 1; step < keys.length; step++) {
            int slot = (start + step) & mask;
            while (keys[slot] != null && stamps[2 * slot] <= stale && stamps[2 * slot + 1] <= stale) {
                removeAt(slot);
                removed++;
            }
        }
        return removed;
    }

    /** How many entries have a number above {@code stale}: those that can still decide something. */
    int liveCount(long stale) {
        int live = 0;
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != null && (stamps[2 * slot] > stale || stamps[2 * slot + 1] > stale)) {
                live++;
            }
        }
        return live;
    }

    /** The table's slots, for tests of its memory bound. */
    int capacity() {
        return keys.length;
    }

    private void resize(int capacity) {
        Bytes[] oldKeys = keys;
        int[] oldHashes = hashes;
        long[] oldStamps = stamps;
        keys = new Bytes[capacity];
        hashes = new int[capacity];
        stamps = new long[2 * capacity];
        int mask = capacity - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = oldHashes[i] & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                hashes[slot] = oldHashes[i];
                stamps[2 * slot] = oldStamps[2 * i];
                stamps[2 * slot + 1] = oldStamps[2 * i + 1];
            }
        }
    }
}
