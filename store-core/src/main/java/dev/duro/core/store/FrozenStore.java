package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.codec.ByteWriter;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The store as it was at one moment, written out piece by piece while the live store goes on taking installs and
 * collecting: how a replica snapshots its partition without stopping it ({@link MultiVersionStore#freeze}).
 *
 * <p>Why the pieces stay those of the frozen moment: versions only grow, so every version installed after it is
 * newer than the image's {@code newestVersion} and is left out of each chain; a chain changes below that version
 * only when collection shortens it, and collection hands the image a copy first ({@link #preserve}); the image
 * holds its own references to the chains and its own copy of the collection queue, so keys leaving the map and
 * entries leaving the queue do not matter. The bytes are exactly those {@link MultiVersionStore#writeTo} would have
 * written at the moment of the freeze.
 *
 * <p>Not thread-safe, like the store: {@link #writeNext} and {@link #release} need the same exclusive access as
 * any other use of the store. {@link #sortKeys} reads only the image and may run beside the store's owner; it is
 * the part that takes longest.
 */
public final class FrozenStore {
    private final MultiVersionStore store;
    private final long horizon;
    private final long newestVersion;
    private final Map.Entry<Bytes, VersionChain>[] entries;
    private final Bytes[] queuedKeys;
    private final long[] queuedVersions;
    /** Chains of the image as they were before collection first shortened them. */
    private final IdentityHashMap<VersionChain, VersionChain> preserved = new IdentityHashMap<>();

    private boolean sorted;
    private boolean headerWritten;
    private int nextEntry;
    private boolean queueCountWritten;
    private int nextQueued;
    private boolean released;

    FrozenStore(
            MultiVersionStore store,
            long horizon,
            long newestVersion,
            Map.Entry<Bytes, VersionChain>[] entries,
            Bytes[] queuedKeys,
            long[] queuedVersions) {
        this.store = store;
        this.horizon = horizon;
        this.newestVersion = newestVersion;
        this.entries = entries;
        this.queuedKeys = queuedKeys;
        this.queuedVersions = queuedVersions;
    }

    /** The newest version the image holds: the store's {@link MultiVersionStore#newestVersion} when frozen. */
    public long newestVersion() {
        return newestVersion;
    }

    public int keyCount() {
        return entries.length;
    }

    /** Puts the image's keys in the encoding's order. Touches only the image, never the live store. */
    public void sortKeys() {
        if (!sorted) {
            Arrays.sort(entries, Map.Entry.comparingByKey());
            sorted = true;
        }
    }

    /**
     * Writes the next part of the encoding: at most {@code itemsMax} keys (each with its versions up to the image's
     * newest) or queued entries, and no item more once {@code bytesMax} bytes are written, so that a part of large
     * values stays about {@code bytesMax} long (at least one item is written). Needs exclusive access to the live
     * store.
     *
     * @return false once the whole image is written
     */
    public boolean writeNext(ByteWriter out, int itemsMax, long bytesMax) {
        if (released) {
            throw new IllegalStateException("the frozen store was released before it was written");
        }
        sortKeys();
        if (!headerWritten) {
            out.writeLong(horizon);
            out.writeLong(newestVersion);
            out.writeInt(entries.length);
            headerWritten = true;
        }
        int budget = Math.max(1, itemsMax);
        long written = out.size();
        long stopAt = written + Math.min(Math.max(1, bytesMax), Long.MAX_VALUE - written);
        while (budget > 0 && out.size() < stopAt && nextEntry < entries.length) {
            Map.Entry<Bytes, VersionChain> entry = entries[nextEntry++];
            VersionChain live = entry.getValue();
            VersionChain copy = preserved.remove(live);
            VersionChain chain = copy != null ? copy : live;
            int count = chain.indexAtOrBelow(newestVersion) + 1;
            if (count == 0) {
                throw new IllegalStateException("frozen key " + entry.getKey() + " lost its versions up to "
                        + newestVersion + " while the store was frozen");
            }
            out.writeBytes(entry.getKey());
            out.writeInt(count);
            for (int i = 0; i < count; i++) {
                out.writeLong(chain.versionAt(i));
                out.writeNullableBytes(chain.valueAt(i));
            }
            budget--;
        }
        if (nextEntry < entries.length) {
            return true;
        }
        if (!queueCountWritten) {
            out.writeInt(queuedKeys.length);
            queueCountWritten = true;
        }
        while (budget > 0 && out.size() < stopAt && nextQueued < queuedKeys.length) {
            out.writeBytes(queuedKeys[nextQueued]);
            out.writeLong(queuedVersions[nextQueued]);
            nextQueued++;
            budget--;
        }
        return nextQueued < queuedKeys.length;
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
    public void release() {
        if (!released) {
            released = true;
            preserved.clear();
            store.thaw(this);
        }
    }
}
