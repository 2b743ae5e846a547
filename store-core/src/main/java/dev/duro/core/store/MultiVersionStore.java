package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.StoreEntry;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The in-memory multiversion store of one partition replica: key → version chain, ordered by key
 * ({@link VersionedStore}).
 *
 * <p>Two indexes over the same chains: a hash table answers point reads and installs ({@link ChainTable}: the chains
 * themselves, open-addressed), and a sorted map answers scans ({@link SortedChains}: built by the first scan and kept
 * from then on). A third holds them in pages for
 * {@linkplain #freeze images} ({@link ChainPages}), which sort their keys themselves, beside the store's owner.
 *
 * <p>Versions are the commit numbers of the partition engine, installed in increasing order. A read at
 * snapshot {@code s} returns the newest version {@code <= s}. Garbage collection is incremental: every install
 * that shadows an older version, or writes a deletion, queues {@code (key, version)}; once the horizon passes
 * that version, the older versions of the key can go. The work is proportional to what is collected, never to
 * the size of the store.
 *
 * <p>A {@linkplain #freeze frozen image} of the store can be written out piece by piece while installs and
 * collection go on: the store itself changes exactly as it would without the image (so replicas stay alike byte
 * for byte, whenever each takes its snapshot), and the image keeps a copy of each chain before collection first
 * shortens it.
 *
 * <p>Not thread-safe: owned by the partition engine, which is single-threaded.
 */
public final class MultiVersionStore implements VersionedStore {
    private final ChainTable chains = new ChainTable();
    /** The same chains in key order, once a scan asked for them. */
    private final SortedChains sortedChains = new SortedChains(chains);
    /** The same chains again, in pages that an image can hold without copying the keys. */
    private final ChainPages pages = new ChainPages();
    /** Keys that hold a version collectable once the horizon reaches it, in install (version) order. */
    private final CollectionQueue collectable = new CollectionQueue();

    private long horizon;
    private long newestVersion;
    private long versionCount;
    /** The open images (usually none): collection hands each the chains it is about to shorten. */
    private final List<FrozenStore> images = new ArrayList<>(1);

    /*
     * Each queued entry is a version of a key that shadows older ones, or deletes the key, collectable once the
     * horizon reaches it. It holds the chain itself so that collection, which happens long after the install
     * when the key is cold, needs no map lookup. The chain is still the key's current one when the entry comes
     * due: a chain leaves the map only when a collection empties it, which needs its newest version at or below
     * the horizon, so all its entries are due in that same pass; those after the removal find it empty and do
     * nothing.
     */

    /** The oldest snapshot that can still be read. */
    @Override
    public long horizon() {
        return horizon;
    }

    /** The newest version installed so far (0 for an empty store). */
    @Override
    public long newestVersion() {
        return newestVersion;
    }

    @Override
    public int keyCount() {
        return chains.size();
    }

    /** Number of versions held, tombstones included. */
    @Override
    public long versionCount() {
        return versionCount;
    }

    /**
     * The newest version of {@code key} at or below {@code snapshot}. A deleted key reads as
     * {@link VersionedValue#ABSENT}, exactly like a key never written: a tombstone's version is not reported,
     * because collecting the tombstone would otherwise change the answer of a read at a still-readable snapshot.
     */
    @Override
    public VersionedValue get(Bytes key, long snapshot) {
        if (snapshot < horizon) {
            throw new SnapshotTooOldException(snapshot, horizon);
        }
        VersionChain chain = chains.get(key);
        return chain == null ? VersionedValue.ABSENT : chain.read(snapshot);
    }

    /**
     * The store's own object for {@code key} if it holds a version of it, else {@code key}: what the certification
     * window keeps for the keys it records, so that a partition retains one object per key, and an install of that
     * object finds its chain without comparing bytes (docs/performance.md, "One object per key").
     */
    public Bytes intern(Bytes key) {
        VersionChain chain = chains.get(key);
        return chain == null ? key : chain.key;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Walks the sorted map from the range's start; keys that hold only a tombstone or only versions above the
     * snapshot are stepped over, so the cost is the keys of the range visited, not only those returned.
     */
    @Override
    public ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a scan's limit must be positive: " + limit);
        }
        if (snapshot < horizon) {
            throw new SnapshotTooOldException(snapshot, horizon);
        }
        TreeMap<Bytes, VersionChain> sorted = sortedChains.upToDate();
        NavigableMap<Bytes, VersionChain> inRange = range.to() == null
                ? sorted.tailMap(range.from(), true)
                : sorted.subMap(range.from(), true, range.to(), false);
        if (descending) {
            inRange = inRange.descendingMap();
        }
        List<StoreEntry> found = new ArrayList<>(Math.min(limit, 64));
        for (Map.Entry<Bytes, VersionChain> entry : inRange.entrySet()) {
            VersionedValue value = entry.getValue().read(snapshot);
            Bytes present = value.value();
            if (present != null) {
                if (found.size() == limit) {
                    return new ScanResult(found, true);
                }
                found.add(new StoreEntry(entry.getKey(), present, value.version()));
            }
        }
        return new ScanResult(found, false);
    }

    /**
     * Installs one write at {@code version}. All writes of one transaction share a version; versions of
     * successive transactions increase. A second write of the same key at the same version replaces the first:
     * a writeset that names a key twice arrives through the log at every replica, so it must install, not fail.
     *
     * @param value the new value, or {@code null} to delete the key
     */
    @Override
    public void put(Bytes key, @Nullable Bytes value, long version) {
        if (version < newestVersion || version <= horizon) {
            throw new IllegalStateException(
                    "version " + version + " below newest " + newestVersion + " or horizon " + horizon);
        }
        newestVersion = version;
        VersionChain chain = chains.get(key);
        if (chain == null) {
            if (value == null) {
                return; // deleting an absent key leaves nothing to remember
            }
            VersionChain created = new VersionChain(key, version, value);
            chains.add(created);
            pages.add(key, created);
            sortedChains.added(created);
        } else if (chain.newestVersion() == version) {
            chain.replaceNewest(value);
            if (value == null) {
                collectable.addLast(chain, version); // the tombstone must go eventually
            }
            return;
        } else {
            chain.append(version, value);
            collectable.addLast(chain, version);
        }
        versionCount++;
    }

    /**
     * Reads ahead what installing {@code writes} and collecting up to {@code nextHorizon} will read: the chains of the
     * written keys and of the versions due (none while {@code nextHorizon} is the horizon), so that their cache misses
     * overlap instead of following one another. Changes nothing; returns a value only so that the reads are kept.
     */
    public int touch(List<Write> writes, long nextHorizon) {
        int sink = 0;
        for (int i = 0, n = writes.size(); i < n; i++) {
            sink += chains.touch(writes.get(i).key());
        }
        // A step of the horizon collects the versions that the one transaction it passes shadowed: about as many as a
        // transaction writes. Bounded, so that a step that collects much reads ahead only its first few.
        return sink + collectable.touchDue(nextHorizon, 2 * writes.size() + 2);
    }

    /**
     * Raises the horizon to {@code newHorizon} and removes versions no snapshot at or above it can read.
     * Lowering the horizon is ignored.
     */
    @Override
    public void collectGarbage(long newHorizon) {
        if (newHorizon <= horizon) {
            return;
        }
        if (newHorizon > newestVersion) {
            newHorizon = newestVersion;
        }
        horizon = newHorizon;
        while (!collectable.isEmpty() && collectable.firstVersion() <= horizon) {
            VersionChain chain = collectable.firstChain();
            collectable.removeFirst();
            int before = chain.size();
            if (!images.isEmpty() && before > 0) {
                for (FrozenStore image : images) {
                    image.preserve(chain);
                }
            }
            if (before > 0 && chain.collectBelow(horizon)) {
                chains.remove(chain);
                pages.remove(chain);
                sortedChains.removed(chain);
            }
            versionCount -= before - chain.size();
        }
    }

    /** Every key with its newest version at {@code snapshot}, for digests and state transfer; sorted by key. */
    public List<Map.Entry<Bytes, VersionedValue>> sortedView(long snapshot) {
        if (snapshot < horizon) {
            throw new SnapshotTooOldException(snapshot, horizon);
        }
        List<Map.Entry<Bytes, VersionedValue>> out = new ArrayList<>(chains.size());
        for (Map.Entry<Bytes, VersionChain> entry : sortedChains.upToDate().entrySet()) {
            VersionedValue value = entry.getValue().read(snapshot);
            if (value.isPresent()) {
                out.add(Map.entry(entry.getKey(), value));
            }
        }
        return out;
    }

    // ---- state transfer -------------------------------------------------------------------------------------

    /** Visits the whole content (horizon, chains, collection queue) in a deterministic order. */
    @Override
    public void writeTo(ByteWriter out) {
        FrozenStore image = freeze();
        try {
            while (image.writeNext(out, Integer.MAX_VALUE, Long.MAX_VALUE)) {
                // one call writes everything
            }
        } finally {
            image.release();
        }
    }

    /**
     * An image of the store as it is now, for writing out ({@link FrozenStore#writeNext}) while installs and
     * collection go on; {@link FrozenStore#release} closes it. Costs a reference per page of {@link ChainPages} and per
     * block of the collection queue now, whatever the store's size, then a copy of each page of keys that a key's
     * creation or removal writes, and of each chain that collection shortens, while the image is open. The image
     * writes the keys in the order of the pages, so a snapshot sorts nothing.
     */
    @Override
    public FrozenStore freeze() {
        FrozenStore image = new FrozenStore(this, horizon, newestVersion, pages.freeze(), collectable.freeze());
        images.add(image);
        return image;
    }

    /** Whether an image is open ({@link #freeze}). */
    public boolean isFrozen() {
        return !images.isEmpty();
    }

    /** The end of {@code released}. */
    void thaw(FrozenStore released) {
        images.remove(released);
        pages.thaw();
    }

    public static MultiVersionStore readFrom(ByteReader in) {
        MultiVersionStore store = new MultiVersionStore();
        store.horizon = in.readLong();
        store.newestVersion = in.readLong();
        int keys = in.readCount();
        for (int k = 0; k < keys; k++) {
            Bytes key = in.readBytes();
            int versions = in.readCount();
            VersionChain chain = null;
            for (int i = 0; i < versions; i++) {
                long version = in.readLong();
                Bytes value = in.readNullableBytes();
                if (chain == null) {
                    chain = new VersionChain(key, version, value);
                } else {
                    chain.append(version, value);
                }
                store.versionCount++;
            }
            if (chain != null) {
                if (store.chains.get(key) != null) {
                    throw new MalformedInputException("store snapshot holds key " + key + " twice");
                }
                store.chains.add(chain);
                store.pages.add(key, chain);
            }
        }
        int pending = in.readCount();
        for (int i = 0; i < pending; i++) {
            Bytes key = in.readBytes();
            long version = in.readLong();
            VersionChain chain = store.chains.get(key);
            if (chain == null || version <= store.horizon || version > chain.newestVersion()) {
                // Every queued entry is above the horizon and within its chain (see the queue's note above).
                throw new MalformedInputException("store snapshot queues key " + key + " at version " + version
                        + " for collection, but holds no such version above the horizon");
            }
            store.collectable.addLast(chain, version);
        }
        return store;
    }
}
