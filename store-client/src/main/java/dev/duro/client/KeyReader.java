package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import java.util.Collection;
import java.util.List;
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

    /**
     * The present keys of {@code range} ({@code [from, to)}, to the end of the key space if {@code to} is null) in
     * the transaction's snapshot, in key order ascending or descending, at most {@code limit} of them; the
     * transaction's own buffered writes included, its deletes hidden. In an update transaction the part of the range
     * the scan observed is certified like a read of every key in it, absent keys included: a key inserted into or
     * deleted from it concurrently (a phantom) aborts the transaction. When the limit cuts the scan short, only the
     * part up to the last key returned is certified (docs/ranges.md).
     *
     * <p>With the range partitioner a scan reads only the partitions its range crosses, in order, and stops at
     * the limit; with the hash partitioner it asks every partition and merges the answers, so every partition
     * takes part (and, in an update transaction, certifies it, which makes the transaction global).
     *
     * @param limit at least 1
     */
    List<KeyValue> scan(KeyRange range, int limit, ScanOrder order);

    /** The present keys in {@code [from, to)} ascending, at most {@code limit}; a null {@code to} is the end. */
    default List<KeyValue> scan(Bytes from, @Nullable Bytes to, int limit) {
        return scan(new KeyRange(from, to), limit, ScanOrder.ASCENDING);
    }

    /** The present keys in {@code [from, to)} descending, at most {@code limit} (the largest ones). */
    default List<KeyValue> scanDescending(Bytes from, @Nullable Bytes to, int limit) {
        return scan(new KeyRange(from, to), limit, ScanOrder.DESCENDING);
    }

    /** {@link #scan(Bytes, Bytes, int)} with UTF-8 keys. */
    default List<KeyValue> scan(String from, @Nullable String to, int limit) {
        return scan(Bytes.utf8(from), to == null ? null : Bytes.utf8(to), limit);
    }

    /** The present keys that start with {@code prefix}, in order, at most {@code limit}. */
    default List<KeyValue> scanPrefix(Bytes prefix, int limit, ScanOrder order) {
        return scan(KeyRange.prefix(prefix), limit, order);
    }

    /** The present keys that start with {@code prefix} (UTF-8), ascending, at most {@code limit}. */
    default List<KeyValue> scanPrefix(String prefix, int limit) {
        return scanPrefix(Bytes.utf8(prefix), limit, ScanOrder.ASCENDING);
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
