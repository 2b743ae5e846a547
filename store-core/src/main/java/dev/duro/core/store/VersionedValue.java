package dev.duro.core.store;

import dev.duro.core.Bytes;
import javax.annotation.Nullable;

/**
 * What a read at a snapshot returns: the value (or {@code null} when the key is absent or deleted) and the
 * version that wrote it, which is the commit number of the writing transaction at this partition (0 when the
 * key was never written).
 */
public record VersionedValue(@Nullable Bytes value, long version) {
    public static final VersionedValue ABSENT = new VersionedValue(null, 0);

    public boolean isPresent() {
        return value != null;
    }
}
