package dev.duro.core.engine;

import dev.duro.core.TxId;
import dev.duro.core.util.Chunked;
import javax.annotation.Nullable;

/**
 * The engine's retained outcomes: transaction id → {@link Decided}, in the order the transactions were first
 * delivered, oldest forgotten first. Each id also keeps {@code PSC} as it was just before its first delivery, which
 * {@link OutcomeRetention} needs when it forgets the id (docs/window-safety.md). A ring of ids gives the order and an
 * open-addressing table (linear probing, backward-shift deletion) gives the lookup, so retaining an outcome
 * allocates no entry object and forgetting the oldest is one probe.
 *
 * <p>Iteration and eviction follow insertion order only, never the table layout, so every replica that
 * delivers the same log retains the same outcomes.
 */
final class RetainedOutcomes {
    private static final int INITIAL_CAPACITY = 16;

    /** Ids in insertion order: {@code order[(head + i) & mask]} for i in [0, size). */
    private TxId[] order = new TxId[INITIAL_CAPACITY];
    /** {@code pscBefore[(head + i) & mask]}: PSC just before the id at the same place was first delivered. */
    private long[] pscBefore = new long[INITIAL_CAPACITY];

    private int head;
    private int size;
    /** An image handed back ({@link #recycle}) for the next freeze to copy into; null if none. */
    @Nullable
    private Image spare;

    /** The table: twice the ring's capacity, so it is at most half full; an empty slot is null. */
    private TxId[] keys = new TxId[2 * INITIAL_CAPACITY];

    private int[] hashes = new int[2 * INITIAL_CAPACITY];
    private Decided[] values = new Decided[2 * INITIAL_CAPACITY];

    int size() {
        return size;
    }

    @Nullable
    Decided get(TxId tid) {
        int slot = find(tid);
        return slot < 0 ? null : values[slot];
    }

    /**
     * Reads the home slot of {@code tid}, and when {@code oldestToo} the oldest id's entry, as a lookup and forgetting
     * the oldest will (OutcomeRetention.touchNext). Changes nothing.
     */
    int touch(TxId tid, boolean oldestToo) {
        int mask = keys.length - 1;
        int slot = spread(tid.hashCode()) & mask;
        int sink = hashes[slot] + (keys[slot] == null ? 0 : 1);
        if (oldestToo && size > 0) {
            int oldest = spread(order[head].hashCode()) & mask;
            Decided decided = values[oldest];
            sink += hashes[oldest] + (decided == null ? 0 : decided.participantCount());
        }
        return sink;
    }

    /** Replaces the value of a retained id in place, or appends a new id as the newest. */
    void put(TxId tid, Decided decided, long pscBeforeDelivery) {
        int slot = find(tid);
        if (slot >= 0) {
            values[slot] = decided;
            return;
        }
        if (size == order.length) {
            grow();
        }
        order[(head + size) & (order.length - 1)] = tid;
        pscBefore[(head + size) & (order.length - 1)] = pscBeforeDelivery;
        size++;
        insert(tid, spread(tid.hashCode()), decided);
    }

    /** Replaces the value of a retained id; does nothing if it is not retained. */
    void replace(TxId tid, Decided decided) {
        int slot = find(tid);
        if (slot >= 0) {
            values[slot] = decided;
        }
    }

    /** The oldest id retained. */
    TxId oldest() {
        if (size == 0) {
            throw new IllegalStateException("no outcome retained");
        }
        return order[head];
    }

    /** PSC just before the oldest id was first delivered. */
    long oldestPscBefore() {
        if (size == 0) {
            throw new IllegalStateException("no outcome retained");
        }
        return pscBefore[head];
    }

    /** Forgets the oldest id. */
    void removeOldest() {
        if (size == 0) {
            throw new IllegalStateException("no outcome retained");
        }
        TxId oldest = order[head];
        order[head] = null;
        head = (head + 1) & (order.length - 1);
        size--;
        removeAt(find(oldest));
    }

    /** A retained id with its value and the PSC before its first delivery. */
    interface Visitor {
        void visit(TxId tid, Decided decided, long pscBeforeDelivery);
    }

    /** Visits every retained id, oldest first. */
    void forEach(Visitor visitor) {
        for (int i = 0; i < size; i++) {
            int place = (head + i) & (order.length - 1);
            visitor.visit(order[place], values[find(order[place])], pscBefore[place]);
        }
    }

    /**
     * The retained ids as they are now, to visit later from any thread: copies of the ring and the table in chunks
     * ({@link Chunked}; what they refer to is immutable), a millisecond or two for a hundred thousand ids, with no
     * lookup until the visit.
     */
    Image freeze() {
        Image reuse = spare;
        spare = null;
        return new Image(this, reuse);
    }

    /**
     * Hands back an image no longer read (its snapshot written or dropped), whose chunks the next {@link #freeze}
     * copies into rather than allocating: several megabytes at the default hundred thousand ids, whose allocation
     * under the engine's lock could start a young collection there (docs/performance.md, "Freezes without
     * humongous copies, then without allocation").
     */
    void recycle(Image image) {
        spare = image;
    }

    /** The retained ids at one moment ({@link #freeze}): the ring of ids in order and the table of their values. */
    static final class Image {
        private final TxId[][] order;
        private final long[][] pscBefore;
        private final int ringMask;
        private final int head;
        private final int size;
        private final TxId[][] keys;
        private final int[][] hashes;
        private final Decided[][] values;
        private final int tableMask;

        private Image(RetainedOutcomes live, @Nullable Image reuse) {
            order = Chunked.copy(live.order, reuse == null ? null : reuse.order);
            pscBefore = Chunked.copy(live.pscBefore, reuse == null ? null : reuse.pscBefore);
            ringMask = live.order.length - 1;
            head = live.head;
            size = live.size;
            keys = Chunked.copy(live.keys, reuse == null ? null : reuse.keys);
            hashes = Chunked.copy(live.hashes, reuse == null ? null : reuse.hashes);
            values = Chunked.copy(live.values, reuse == null ? null : reuse.values);
            tableMask = live.keys.length - 1;
        }

        /** How many ids the image holds. */
        int size() {
            return size;
        }

        /** Visits every id, oldest first. */
        void forEach(Visitor visitor) {
            for (int i = 0; i < size; i++) {
                int place = (head + i) & ringMask;
                TxId tid = Chunked.at(order, place);
                visitor.visit(tid, Chunked.at(values, slotOf(tid)), Chunked.at(pscBefore, place));
            }
        }

        /** Drops the copies' references once the image is visited for good, before it is handed back for reuse. */
        void clear() {
            Chunked.clear(order);
            Chunked.clear(keys);
            Chunked.clear(values);
        }

        /** The table slot of {@code tid}, which the image holds. */
        private int slotOf(TxId tid) {
            int hash = spread(tid.hashCode());
            for (int slot = hash & tableMask; ; slot = (slot + 1) & tableMask) {
                TxId present = Chunked.at(keys, slot);
                if (present == null) {
                    throw new IllegalStateException("retained id " + tid + " is missing from the frozen table");
                }
                if (present == tid) { // the ring and the table hold the same objects
                    return slot;
                }
            }
        }
    }

    private static int spread(int hash) {
        // TxId's record hash mixes two longs linearly; scramble it before masking.
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    private int find(TxId tid) {
        int hash = spread(tid.hashCode());
        int mask = keys.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            TxId present = keys[slot];
            if (present == null) {
                return -1;
            }
            if (present == tid || (hashes[slot] == hash && present.equals(tid))) {
                return slot;
            }
        }
    }

    private void insert(TxId tid, int hash, Decided decided) {
        int mask = keys.length - 1;
        int slot = hash & mask;
        while (keys[slot] != null) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = tid;
        hashes[slot] = hash;
        values[slot] = decided;
    }

    private void removeAt(int slot) {
        int mask = keys.length - 1;
        int hole = slot;
        for (int next = (hole + 1) & mask; keys[next] != null; next = (next + 1) & mask) {
            // The entry at next may fill the hole iff its home slot is not cyclically within (hole, next].
            if (((next - (hashes[next] & mask)) & mask) >= ((next - hole) & mask)) {
                keys[hole] = keys[next];
                hashes[hole] = hashes[next];
                values[hole] = values[next];
                hole = next;
            }
        }
        keys[hole] = null;
        values[hole] = null;
    }

    private void grow() {
        TxId[] oldOrder = order;
        long[] oldPscBefore = pscBefore;
        TxId[] oldKeys = keys;
        int[] oldHashes = hashes;
        Decided[] oldValues = values;
        order = new TxId[oldOrder.length << 1];
        pscBefore = new long[oldOrder.length << 1];
        for (int i = 0; i < size; i++) {
            order[i] = oldOrder[(head + i) & (oldOrder.length - 1)];
            pscBefore[i] = oldPscBefore[(head + i) & (oldOrder.length - 1)];
        }
        head = 0;
        keys = new TxId[oldKeys.length << 1];
        hashes = new int[oldKeys.length << 1];
        values = new Decided[oldKeys.length << 1];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(oldKeys[i], oldHashes[i], oldValues[i]);
            }
        }
    }
}
