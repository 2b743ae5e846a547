package dev.duro.core.store;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The store's second index over its chains: a sorted map (a red-black tree in unsigned lexicographic key order) that
 * answers scans, beside the hash table of {@link MultiVersionStore} that answers point reads and installs. A tree alone
 * would make every point read walk about 20 nodes of a million-key store, each a likely cache miss (docs/ranges.md,
 * "The ordered store").
 *
 * <p>The sorted map is built by the first scan (in {@code O(n log n)}, once) and kept from then on; a store that is
 * never scanned never pays for it. Once built, it is touched only when a key gains its first version or loses its
 * last, and new keys reach it in sorted batches ({@link #UNORDERED_MAX} at most, and before any scan or freeze).
 * It holds no chain the hash table does not hold, and never decides which chains exist.
 */
final class SortedChains {
    /** New keys not yet in {@link #ordered}, most this many; a stale entry (its key removed since) is skipped. */
    private static final int UNORDERED_MAX = 4096;

    /** The store's hash table: the chains that exist. */
    private final ChainTable chains;
    /**
     * Null until the first scan; then the same chains as {@link #chains}, in key order, but for those still in
     * {@link #unordered}.
     */
    private @Nullable TreeMap<Bytes, VersionChain> ordered;

    private final List<VersionChain> unordered = new ArrayList<>();

    SortedChains(ChainTable chains) {
        this.chains = chains;
    }

    /** Whether a scan built the sorted map. */
    boolean isBuilt() {
        return ordered != null;
    }

    /** {@code key} gained its first version, in chain {@code created}. */
    void added(VersionChain created) {
        TreeMap<Bytes, VersionChain> sorted = ordered;
        if (sorted != null) {
            unordered.add(created);
            if (unordered.size() == UNORDERED_MAX) {
                orderNewKeys(sorted);
            }
        }
    }

    /** Collection emptied {@code chain}, and the store removed its key. */
    void removed(VersionChain chain) {
        if (ordered != null) {
            ordered.remove(chain.key, chain); // by identity; a chain still unordered is skipped when ordered
        }
    }

    /** The sorted map, up to date: built now if this is the first scan, else with the new keys moved in. */
    TreeMap<Bytes, VersionChain> upToDate() {
        TreeMap<Bytes, VersionChain> sorted = ordered;
        if (sorted == null) {
            TreeMap<Bytes, VersionChain> built = new TreeMap<>();
            chains.forEach(chain -> built.put(chain.key, chain));
            sorted = built;
            ordered = sorted;
        } else {
            orderNewKeys(sorted);
        }
        return sorted;
    }

    /** Moves the new keys into the sorted map, in key order. */
    private void orderNewKeys(TreeMap<Bytes, VersionChain> sorted) {
        if (unordered.isEmpty()) {
            return;
        }
        unordered.sort((a, b) -> a.key.compareTo(b.key));
        for (VersionChain chain : unordered) {
            if (chains.get(chain.key) == chain) {
                sorted.put(chain.key, chain);
            }
        }
        unordered.clear();
    }
}
