package dev.duro.core;

import javax.annotation.Nullable;

/** One buffered write of a transaction: a new value for {@code key}, or its deletion when value is null. */
public record Write(Bytes key, @Nullable Bytes value) {
    public static Write put(Bytes key, Bytes value) {
        return new Write(key, value);
    }

    public static Write delete(Bytes key) {
        return new Write(key, null);
    }

    public boolean isDelete() {
        return value == null;
    }
}
