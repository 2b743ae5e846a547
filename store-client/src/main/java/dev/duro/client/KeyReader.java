package dev.duro.client;

import dev.duro.core.Bytes;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/** Reads of a transaction, update or read-only: the blocking and text forms derive from {@link #getAsync}. */
public interface KeyReader {
    /** The value of {@code key} in the transaction's snapshot, or null when absent. */
    CompletableFuture<Bytes> getAsync(Bytes key);

    default @Nullable Bytes get(Bytes key) {
        return Transaction.join(getAsync(key));
    }

    /** The value as UTF-8 text, or null when absent. */
    default @Nullable String get(String key) {
        Bytes value = get(Bytes.utf8(key));
        return value == null ? null : value.toUtf8();
    }

    /** A value written by {@link Transaction#putLong}, or 0 when absent. */
    default long getLong(String key) {
        String value = get(key);
        return value == null ? 0 : Long.parseLong(value);
    }
}
