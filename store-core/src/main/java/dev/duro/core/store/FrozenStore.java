package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.StoreEntry;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The store as it was at one moment, written out piece by piece while the live store goes on taking installs and
 * collecting: how a replica snapshots its partition without stopping it ({@link MultiVersionStore#freeze}).
 *
 * <p>Why the pieces stay those of the frozen moment: versions only grow, so every version installed after it is
 * newer than the image's {@code newestVersion} and is left out of each chain; a chain changes below that version
 * only when collection shortens it, and collection hands the image a copy first ({@link #preserve}); the image
 * holds the store's pages of keys and blocks of the collection queue as they were, which the store copies before it
 * writes ({@link ChainPages}) or never writes again ({@link CollectionQueue}), so keys leaving the store and entries
 * leaving the queue do not matter. The bytes are exactly those {@link MultiVersionStore#writeTo} would have
 * written at the moment of the freeze, and reads and scans at a snapshot in {@code [horizon, newestVersion]} answer
 * what the store answered then.
 *
 * <p>The keys are written in the order of the store's pages, not sorted: a snapshot costs no sort of the store, and
 * the order is a function of the log like everything else written (a key takes the next place when it is created,
 * the last place fills the hole when one is removed, and a store read back takes its places in the order written),
 * so replicas that delivered the same log write the same bytes (docs/replication.md, "Snapshots do not stop
 * applying"). Only {@link #get} and {@link #scan} sort the image's keys, on their first use.
 *
 * <p>Not thread-safe, like the store: {@link #writeNext} and {@link #release} need the same exclusive access as
 * any other use of the store, and so do {@link #get} and {@link #scan}, which read chains the store still shares.
 */
public final class FrozenStore implements StoreImage {
    private final MultiVersionStore store;
    private final long horizon;
    private final long newestVersion;
    /** The store's pages of (key, chain) as they were at the freeze: the order the keys are written in. */
    private final ChainPages.Image pages;
    /** The image's keys, ascending, and their chains (live ones; see {@link #frozen}): null until a read sorts them. */
    private @Nullable Bytes[] sortedKeys;

    private @Nullable VersionChain[] sortedChains;

    private final int keyCount;
    private final CollectionQueue.Image queued;
    /** Chains of the image as they were before collection first shortened them. */
    private final IdentityHashMap<VersionChain, VersionChain> preserved = new IdentityHashMap<>();

    private boolean headerWritten;
    private int nextEntry;
    private boolean queueCountWritten;
    private int nextQueued;
    private boolean released;

    FrozenStore(
            MultiVersionStore store,
            long horizon,
            long newestVersion,
            ChainPages.Image pages,
            CollectionQueue.Image queued) {
        this.store = store;
        this.horizon = horizon;
        this.newestVersion = newestVersion;
        this.pages = pages;
        this.keyCount = pages.size();
        this.queued = queued;
    }

    /** The newest version the image holds: the store's {@link MultiVersionStore#newestVersion} when frozen. */
    @Override
    public long newestVersion() {
        return newestVersion;
    }

    @Override
    public long horizon() {
        return horizon;
    }

    @Override
    public int keyCount() {
        return keyCount;
    }

    /** The keys, ascending, for reads: sorted with their chains on first use. Touches only the image. */
    private Bytes[] sortedKeys() {
        if (sortedKeys == null) {
            @SuppressWarnings("unchecked")
            Map.Entry<Bytes, VersionChain>[] entries = new Map.Entry[keyCount];
            for (int place = 0; place < keyCount; place++) {
                entries[place] = Map.entry(pages.keyAt(place), pages.chainAt(place));
            }
            Arrays.sort(entries, Map.Entry.comparingByKey());
            Bytes[] keys = new Bytes[keyCount];
            VersionChain[] chains = new VersionChain[keyCount];
            for (int i = 0; i < keyCount; i++) {
                keys[i] = entries[i].getKey();
                chains[i] = entries[i].getValue();
            }
            sortedKeys = keys;
            sortedChains = chains;
        }
        return sortedKeys;
    }

    @Override
    public VersionedValue get(Bytes key, long snapshot) {
        checkReadable(snapshot);
        int at = Arrays.binarySearch(sortedKeys(), key);
        return at < 0 ? VersionedValue.ABSENT : sortedChainAt(at).read(snapshot);
    }

    @Override
    public ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a scan's limit must be positive: " + limit);
        }
        checkReadable(snapshot);
        Bytes[] keys = sortedKeys();
        int first = insertionPoint(range.from());
        int end = range.to() == null ? keys.length : insertionPoint(range.to());
        List<StoreEntry> found = new ArrayList<>(Math.min(limit, 64));
        int step = descending ? -1 : 1;
        for (int at = descending ? end - 1 : first; at >= first && at < end; at += step) {
            VersionedValue value = sortedChainAt(at).read(snapshot);
            Bytes present = value.value();
            if (present != null) {
                if (found.size() == limit) {
                    return new ScanResult(found, true);
                }
                found.add(new StoreEntry(keys[at], present, value.version()));
            }
        }
        return new ScanResult(found, false);
    }

    private void checkReadable(long snapshot) {
        if (released) {
            throw new IllegalStateException("the frozen store was released");
        }
        if (snapshot < horizon) {
            throw new SnapshotTooOldException(snapshot, horizon);
        }
        if (snapshot > newestVersion) {
            throw new IllegalArgumentException(
                    "snapshot " + snapshot + " is above the image's newest version " + newestVersion);
        }
    }

    /** The index of the first key at or above {@code key}. */
    private int insertionPoint(Bytes key) {
        int at = Arrays.binarySearch(sortedKeys(), key);
        return at >= 0 ? at : -at - 1;
    }

    /** The chain of the {@code at}-th key in ascending order, as it was at the freeze. */
    private VersionChain sortedChainAt(int at) {
        return frozen(Objects.requireNonNull(sortedChains, "sorted chains")[at]);
    }

    /** {@code chain} as it was at the freeze: the copy kept before collection shortened it, if it was. */
    private VersionChain frozen(VersionChain chain) {
        VersionChain copy = preserved.get(chain);
        return copy != null ? copy : chain;
    }

    /**
     * Writes the next part of the encoding: at most {@code itemsMax} keys (each with its versions up to the image's
     * newest) or queued entries, and no item more once {@code bytesMax} bytes are written, so that a part of large
     * values stays about {@code bytesMax} long (at least one item is written). Needs exclusive access to the live
     * store.
     *
     * @return false once the whole image is written
     */
    @Override
    public boolean writeNext(ByteWriter out, int itemsMax, long bytesMax) {
        if (released) {
            throw new IllegalStateException("the frozen store was released before it was written");
        }
        if (!headerWritten) {
            out.writeLong(horizon);
            out.writeLong(newestVersion);
            out.writeInt(keyCount);
            headerWritten = true;
        }
        int budget = Math.max(1, itemsMax);
        long written = out.size();
        long stopAt = written + Math.min(Math.max(1, bytesMax), Long.MAX_VALUE - written);
        while (budget > 0 && out.size() < stopAt && nextEntry < keyCount) {
            Bytes key = pages.keyAt(nextEntry);
            VersionChain chain = frozen(pages.chainAt(nextEntry));
            nextEntry++;
            int count = chain.indexAtOrBelow(newestVersion) + 1;
            if (count == 0) {
                throw new IllegalStateException("frozen key " + key + " lost its versions up to " + newestVersion
                        + " while the store was frozen");
            }
            out.writeBytes(key);
            out.writeInt(count);
            for (int i = 0; i < count; i++) {
                out.writeLong(chain.versionAt(i));
                chain.writeValueAt(i, out);
            }
            budget--;
        }
        if (nextEntry < keyCount) {
            return true;
        }
        if (!queueCountWritten) {
            out.writeInt(queued.size());
            queueCountWritten = true;
        }
        while (budget > 0 && out.size() < stopAt && nextQueued < queued.size()) {
            out.writeBytes(queued.keyAt(nextQueued));
            out.writeLong(queued.versionAt(nextQueued));
            nextQueued++;
            budget--;
        }
        return nextQueued < queued.size();
    }

    /**
     * Called by collection before it shortens {@code chain}: keeps a copy if the image holds versions of it that
     * collection may remove (its oldest version is the image's) and has not kept one yet.
     */
    void preserve(VersionChain chain) {
        if (!released && chain.versionAt(0) <= newestVersion && !preserved.containsKey(chain)) {
            preserved.put(chain, chain.copy());
        }
    }

    /** Ends the image, written or not. Needs exclusive access to the live store; a second call does nothing. */
    @Override
    public void release() {
        if (!released) {
            released = true;
            preserved.clear();
            store.thaw(this);
        }
    }
}
