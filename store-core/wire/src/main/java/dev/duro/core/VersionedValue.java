package dev.duro.core;

import javax.annotation.Nullable;

/**
 * What a read at a snapshot returns: the value and the version that wrote it, which is the commit number of the
 * writing transaction at this partition. A key never written and a deleted key read alike as {@link #ABSENT}
 * (no value, version 0).
 */
public record VersionedValue(@Nullable Bytes value, long version) {
    public static final VersionedValue ABSENT = new VersionedValue(null, 0);

    public boolean isPresent() {
        return value != null;
    }
}
