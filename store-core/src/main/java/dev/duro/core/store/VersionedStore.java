package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteWriter;
import javax.annotation.Nullable;

/**
 * What the partition engine needs of a multiversion store, ordered by key in unsigned lexicographic byte order: the
 * contract an in-memory store ({@link MultiVersionStore}) and a disk-backed one must both keep.
 *
 * <ul>
 *   <li>Versions are the engine's commit numbers, installed in increasing order ({@link #put}); a read at snapshot
 *       {@code s} sees, per key, the newest version at or below {@code s}, and a deleted key reads as absent.
 *   <li>Reads below the {@linkplain #horizon horizon} throw {@link SnapshotTooOldException}; at or above it the
 *       answer of a read never changes, whatever is collected ({@link #collectGarbage}).
 *   <li>The content is a function of the installs and collections only, so replicas agree byte for byte
 *       ({@link #writeTo}), and a frozen image ({@link #freeze}) writes the state of the moment it was taken while
 *       installs go on.
 * </ul>
 *
 * <p>Not thread-safe: owned by a single-threaded engine.
 */
public interface VersionedStore {
    /** The oldest snapshot that can still be read. */
    long horizon();

    /** The newest version installed so far (0 for an empty store). */
    long newestVersion();

    /** Keys that hold at least one version, tombstones included. */
    int keyCount();

    /** Versions held, tombstones included. */
    long versionCount();

    /** The newest version of {@code key} at or below {@code snapshot}; absent for a deleted or unknown key. */
    VersionedValue get(Bytes key, long snapshot);

    /**
     * The present keys of {@code range} at {@code snapshot}, in ascending or descending key order, at most
     * {@code limit} of them.
     *
     * @throws SnapshotTooOldException if {@code snapshot} is below the horizon
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot);

    /** Installs one write at {@code version}; {@code null} deletes. See {@link MultiVersionStore#put}. */
    void put(Bytes key, @Nullable Bytes value, long version);

    /** Raises the horizon and drops the versions no snapshot at or above it can read. */
    void collectGarbage(long newHorizon);

    /** Writes the whole content in the snapshot encoding. */
    void writeTo(ByteWriter out);

    /** An image of the content as it is now, written later while installs and collection go on. */
    StoreImage freeze();
}
