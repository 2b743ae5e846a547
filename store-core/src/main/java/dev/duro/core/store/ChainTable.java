package dev.duro.core.store;

import dev.duro.core.Bytes;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * The store's point index: its chains by key, in one open-addressed array (linear probing) whose elements are the
 * chains themselves, each holding its key and the key's hash. A lookup reads the array's slot, the chain and the key,
 * where a {@link java.util.HashMap} reads its table, an entry object, the key and then the chain; on a store of a
 * million keys each of those is likely a cache miss (docs/performance.md, "Version chains hold their newest two
 * versions").
 *
 * <p>The table doubles when it is half full and never shrinks, like the hash map it replaces. Removal shifts the
 * chains after the hole back, so no tombstones build up in a store whose keys come and go.
 *
 * <p>Not thread-safe: owned by the store.
 */
final class ChainTable {
    private static final int INITIAL_CAPACITY = 16;
    /**
     * How far {@link #touch} follows a probe run. At the table's fullest (half) a key sits within four slots of its
     * home in all but a few percent of lookups.
     */
    private static final int TOUCH_PROBES = 4;

    private VersionChain[] slots = new VersionChain[INITIAL_CAPACITY];
    /** {@code 32 - log2(slots.length)}: a hash's slot is its Fibonacci product's top bits. */
    private int shift = 32 - Integer.numberOfTrailingZeros(INITIAL_CAPACITY);

    private int size;

    int size() {
        return size;
    }

    /** The chain of {@code key}, or null if the store holds no version of it. */
    @Nullable
    VersionChain get(Bytes key) {
        int hash = key.hashCode();
        VersionChain[] table = slots;
        int mask = table.length - 1;
        for (int i = home(hash); ; i = (i + 1) & mask) {
            VersionChain chain = table[i];
            if (chain == null || (chain.hash == hash && chain.key.equals(key))) {
                return chain;
            }
        }
    }

    /**
     * Reads what {@link #get} will read for {@code key}, without comparing keys: the probe run from its home slot to
     * the first chain with the key's hash (the key's own, but for a collision of hashes) or an empty slot, and that
     * chain. A hint that lets the cache misses of several keys overlap; a run longer than {@link #TOUCH_PROBES} slots
     * is left to the lookup. Returns a value only so that the reads are kept.
     */
    int touch(Bytes key) {
        int hash = key.hashCode();
        VersionChain[] table = slots;
        int mask = table.length - 1;
        int i = home(hash);
        for (int probe = 0; probe < TOUCH_PROBES; probe++, i = (i + 1) & mask) {
            VersionChain chain = table[i];
            if (chain == null) {
                return probe;
            }
            if (chain.hash == hash) {
                return chain.touch();
            }
        }
        return 0;
    }

    /** Adds {@code chain}, whose key the table does not hold. */
    void add(VersionChain chain) {
        if (size + 1 > slots.length >>> 1) {
            resize(slots.length << 1);
        }
        insert(slots, chain);
        size++;
    }

    /** Removes {@code chain}, which the table holds. */
    void remove(VersionChain chain) {
        VersionChain[] table = slots;
        int mask = table.length - 1;
        int hole = home(chain.hash);
        while (table[hole] != chain) {
            if (table[hole] == null) {
                throw new IllegalStateException("chain of " + chain.key + " is not in the table");
            }
            hole = (hole + 1) & mask;
        }
        // Move back every chain after the hole that may sit there: one whose home is not between the hole and it.
        for (int at = (hole + 1) & mask; table[at] != null; at = (at + 1) & mask) {
            VersionChain next = table[at];
            if (((at - home(next.hash)) & mask) >= ((at - hole) & mask)) {
                table[hole] = next;
                hole = at;
            }
        }
        table[hole] = null;
        size--;
    }

    /** Every chain, in no particular order. */
    void forEach(Consumer<VersionChain> action) {
        for (VersionChain chain : slots) {
            if (chain != null) {
                action.accept(chain);
            }
        }
    }

    private int home(int hash) {
        // The key's hash is murmur3, but partitioning may have cut the key space by hashes too: mix again.
        return (hash * 0x9E3779B9) >>> shift;
    }

    private void insert(VersionChain[] table, VersionChain chain) {
        int mask = table.length - 1;
        int i = home(chain.hash);
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = chain;
    }

    private void resize(int capacity) {
        VersionChain[] old = slots;
        VersionChain[] table = new VersionChain[capacity];
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
        for (VersionChain chain : old) {
            if (chain != null) {
                insert(table, chain);
            }
        }
        slots = table;
    }
}
