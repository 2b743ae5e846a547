package dev.duro.client;

import dev.duro.core.Bytes;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/** Reads of a transaction, update or read-only: the blocking and text forms derive from {@link #getAsync}. */
public interface KeyReader {
    /** The value of {@code key} in the transaction's snapshot, or null when absent. */
    CompletableFuture<Bytes> getAsync(Bytes key);

    default @Nullable Bytes get(Bytes key) {
        return Transaction.join(getAsync(key));
    }

    /**
     * The values of {@code keys} in the transaction's snapshot, in the keys' order (a key named twice appears
     * once); an absent key maps to null. One request per partition (per 32 keys), all sent at once: the round trip
     * of a read per key, once.
     */
    CompletableFuture<Map<Bytes, Bytes>> getAllAsync(Collection<Bytes> keys);

    /** {@link #getAllAsync}, waiting for the answer. */
    default Map<Bytes, Bytes> getAll(Collection<Bytes> keys) {
        return Transaction.join(getAllAsync(keys));
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
