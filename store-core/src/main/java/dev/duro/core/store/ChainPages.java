package dev.duro.core.store;

import dev.duro.core.Bytes;
import java.util.Arrays;

/**
 * Every key of the store with its chain, in an array cut into pages of {@link #PAGE_SIZE} places, so that an image
 * of the store costs a copy of the page table, not of the keys ({@link MultiVersionStore#freeze}). The order of the
 * places has no meaning: a key takes the next place when it gains its first version, and when it loses its last, the
 * key in the last place moves into its own ({@link VersionChain#place} says where a chain is).
 *
 * <p>Copy-on-write by page. A freeze stamps the pages as the newest image's; while an image is open, a write to a
 * page made before the newest freeze copies the page first and writes the copy. So an image's pages never change
 * after its freeze, and another thread may read them. Places change only when a key is created or its chain
 * emptied: a store whose keys are only overwritten copies nothing (docs/replication.md, "Snapshots do not stop
 * applying").
 *
 * <p>Not thread-safe: owned by the store.
 */
final class ChainPages {
    private static final int PAGE_BITS = 10;
    static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_SIZE - 1;

    private Bytes[][] keyPages = new Bytes[1][];
    private VersionChain[][] chainPages = new VersionChain[1][];
    /** Per page, how many freezes had happened when the page was made (allocated or copied). */
    private long[] madeAfter = new long[1];

    private int size;
    private long freezes;
    private int openImages;

    /**
     * The pages as they were at one freeze: places {@code [0, size)}. Never written after the freeze, so readable from
     * any thread that the freeze happened before.
     */
    record Image(Bytes[][] keyPages, VersionChain[][] chainPages, int size) {
        Bytes keyAt(int place) {
            return keyPages[place >>> PAGE_BITS][place & PAGE_MASK];
        }

        VersionChain chainAt(int place) {
            return chainPages[place >>> PAGE_BITS][place & PAGE_MASK];
        }
    }

    int size() {
        return size;
    }

    /** {@code key} gained its first version, in {@code chain}. */
    void add(Bytes key, VersionChain chain) {
        int place = size;
        int page = place >>> PAGE_BITS;
        if (page == keyPages.length) {
            keyPages = Arrays.copyOf(keyPages, page * 2);
            chainPages = Arrays.copyOf(chainPages, page * 2);
            madeAfter = Arrays.copyOf(madeAfter, page * 2);
        }
        if (keyPages[page] == null) {
            keyPages[page] = new Bytes[PAGE_SIZE];
            chainPages[page] = new VersionChain[PAGE_SIZE];
            madeAfter[page] = freezes;
        } else {
            writable(page);
        }
        keyPages[page][place & PAGE_MASK] = key;
        chainPages[page][place & PAGE_MASK] = chain;
        chain.place = place;
        size++;
    }

    /** Collection emptied {@code chain}, and the store removed its key. */
    void remove(VersionChain chain) {
        int place = chain.place;
        int last = size - 1;
        if (chainPages[place >>> PAGE_BITS][place & PAGE_MASK] != chain) {
            throw new IllegalStateException("chain not at its place " + place);
        }
        int lastPage = last >>> PAGE_BITS;
        writable(lastPage);
        if (place != last) {
            Bytes movedKey = keyPages[lastPage][last & PAGE_MASK];
            VersionChain moved = chainPages[lastPage][last & PAGE_MASK];
            int page = place >>> PAGE_BITS;
            writable(page);
            keyPages[page][place & PAGE_MASK] = movedKey;
            chainPages[page][place & PAGE_MASK] = moved;
            moved.place = place;
        }
        keyPages[lastPage][last & PAGE_MASK] = null;
        chainPages[lastPage][last & PAGE_MASK] = null;
        size--;
        int spare = lastPage + 1;
        if ((size & PAGE_MASK) == 0 && spare < keyPages.length && keyPages[spare] != null) {
            // The last page just emptied: give back the one after it, keeping one empty page for the next key (an
            // image keeps its own table, so this changes no page it holds).
            keyPages[spare] = null;
            chainPages[spare] = null;
        }
    }

    /** Pages allocated, empty ones included: at most one more than {@link #size} needs. */
    int allocatedPages() {
        int allocated = 0;
        while (allocated < keyPages.length && keyPages[allocated] != null) {
            allocated++;
        }
        return allocated;
    }

    /** Copies {@code page} first if an open image holds it. */
    private void writable(int page) {
        if (openImages > 0 && madeAfter[page] < freezes) {
            keyPages[page] = keyPages[page].clone();
            chainPages[page] = chainPages[page].clone();
            madeAfter[page] = freezes;
        }
    }

    /** The pages as they are now, until {@link #thaw}: a copy of the page table, a reference per page. */
    Image freeze() {
        freezes++;
        openImages++;
        int pages = (size + PAGE_MASK) >>> PAGE_BITS;
        return new Image(Arrays.copyOf(keyPages, pages), Arrays.copyOf(chainPages, pages), size);
    }

    /** An image is closed. */
    void thaw() {
        if (openImages == 0) {
            throw new IllegalStateException("no image is open");
        }
        openImages--;
    }
}
