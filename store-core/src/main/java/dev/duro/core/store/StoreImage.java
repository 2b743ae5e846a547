package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.ByteWriter;

/**
 * A store as it was when {@linkplain VersionedStore#freeze frozen}: written out piece by piece, and readable at any
 * snapshot from its horizon up to its newest version, while the live store goes on. Needs the same exclusive access
 * as the live store, except where an implementation says otherwise.
 */
public interface StoreImage {
    /** The newest version the image holds. */
    long newestVersion();

    /** The oldest snapshot the image can read. */
    long horizon();

    int keyCount();

    /** Reads {@code key} at {@code snapshot} as the store would have when frozen. */
    VersionedValue get(Bytes key, long snapshot);

    /** Scans as {@link VersionedStore#scan} would have when frozen. */
    ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot);

    /** Writes the next part of the encoding; false once everything is written. */
    boolean writeNext(ByteWriter out, int itemsMax, long bytesMax);

    /** Ends the image; a second call does nothing. */
    void release();
}
