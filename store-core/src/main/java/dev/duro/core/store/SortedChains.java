package dev.duro.core.store;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The store's second index over its chains: a sorted map (a red-black tree in unsigned lexicographic key order) that
 * answers scans, beside the hash map of {@link MultiVersionStore} that answers point reads and installs. A tree alone
 * would make every point read walk about 20 nodes of a million-key store, each a likely cache miss (docs/ranges.md,
 * "The ordered store").
 *
 * <p>The sorted map is built by the first scan (in {@code O(n log n)}, once) and kept from then on; a store that is
 * never scanned never pays for it. Once built, it is touched only when a key gains its first version or loses its
 * last, and new keys reach it in sorted batches ({@link #UNORDERED_MAX} at most, and before any scan or freeze).
 * It holds no chain the hash map does not hold, and never decides which chains exist.
 */
final class SortedChains {
    /** New keys not yet in {@link #ordered}, most this many; a stale entry (its key removed since) is skipped. */
    private static final int UNORDERED_MAX = 4096;

    /** The store's hash map: the chains that exist. */
    private final Map<Bytes, VersionChain> chains;
    /**
     * Null until the first scan; then the same chains as {@link #chains}, in key order, but for those still in
     * {@link #unordered}.
     */
    private @Nullable TreeMap<Bytes, VersionChain> ordered;

    private final List<Map.Entry<Bytes, VersionChain>> unordered = new ArrayList<>();

    SortedChains(Map<Bytes, VersionChain> chains) {
        this.chains = chains;
    }

    /** Whether a scan built the sorted map. */
    boolean isBuilt() {
        return ordered != null;
    }

    /** {@code key} gained its first version, in chain {@code created}. */
    void added(Bytes key, VersionChain created) {
        TreeMap<Bytes, VersionChain> sorted = ordered;
        if (sorted != null) {
            unordered.add(Map.entry(key, created));
            if (unordered.size() == UNORDERED_MAX) {
                orderNewKeys(sorted);
            }
        }
    }

    /** Collection emptied {@code chain}, and the store removed {@code key}. */
    void removed(Bytes key, VersionChain chain) {
        if (ordered != null) {
            ordered.remove(key, chain); // by identity; a chain still unordered is skipped when ordered
        }
    }

    /** The sorted map, up to date: built now if this is the first scan, else with the new keys moved in. */
    TreeMap<Bytes, VersionChain> upToDate() {
        TreeMap<Bytes, VersionChain> sorted = ordered;
        if (sorted == null) {
            sorted = new TreeMap<>(chains);
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
        unordered.sort(Map.Entry.comparingByKey());
        for (Map.Entry<Bytes, VersionChain> entry : unordered) {
            if (chains.get(entry.getKey()) == entry.getValue()) {
                sorted.put(entry.getKey(), entry.getValue());
            }
        }
        unordered.clear();
    }
}
