package dev.duro.core;

import javax.annotation.Nullable;

/**
 * A range of keys {@code [from, to)} in unsigned lexicographic byte order ({@link Bytes#compareTo}): {@code from}
 * inclusive, {@code to} exclusive, as in etcd and FoundationDB. A {@code null} {@code to} is the end of the key
 * space. A transaction that scans a range has read every key in it, the absent ones included: a concurrent insert
 * or delete inside it (a phantom) conflicts with the scan (docs/ranges.md).
 *
 * @param from the first key of the range
 * @param to the first key after the range, or {@code null} for no upper bound; above {@code from} when present
 */
public record KeyRange(Bytes from, @Nullable Bytes to) {
    /** Every key. */
    public static final KeyRange ALL = new KeyRange(Bytes.EMPTY, null);

    public KeyRange {
        if (from == null) {
            throw new IllegalArgumentException("a key range needs a first key");
        }
        if (to != null && from.compareTo(to) >= 0) {
            throw new IllegalArgumentException("a key range's end " + to + " must be above its start " + from);
        }
    }

    /** The keys that start with {@code prefix}: {@code [prefix, prefixEnd(prefix))}. */
    public static KeyRange prefix(Bytes prefix) {
        return new KeyRange(prefix, prefixEnd(prefix));
    }

    /**
     * The smallest key above every key that starts with {@code prefix}: the prefix with its last byte below
     * {@code 0xff} incremented and the bytes after it dropped; {@code null} (the end of the key space) when every
     * byte is {@code 0xff}, or the prefix is empty.
     */
    public static @Nullable Bytes prefixEnd(Bytes prefix) {
        byte[] bytes = prefix.toByteArray();
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] != (byte) 0xff) {
                byte[] end = new byte[i + 1];
                System.arraycopy(bytes, 0, end, 0, i);
                end[i] = (byte) (bytes[i] + 1);
                return Bytes.wrap(end);
            }
        }
        return null;
    }

    /** The smallest key above {@code key}: the key followed by a zero byte. */
    public static Bytes successor(Bytes key) {
        byte[] bytes = new byte[key.size() + 1];
        System.arraycopy(key.unsafeArray(), 0, bytes, 0, key.size());
        return Bytes.wrap(bytes);
    }

    public boolean contains(Bytes key) {
        return from.compareTo(key) <= 0 && (to == null || key.compareTo(to) < 0);
    }

    /** Whether the two ranges share a key. */
    public boolean overlaps(KeyRange other) {
        return (to == null || other.from.compareTo(to) < 0) && (other.to == null || from.compareTo(other.to) < 0);
    }

    /** The smallest range holding both. */
    public KeyRange span(KeyRange other) {
        Bytes start = from.compareTo(other.from) <= 0 ? from : other.from;
        Bytes end = to == null || other.to == null ? null : (to.compareTo(other.to) >= 0 ? to : other.to);
        return new KeyRange(start, end);
    }

    @Override
    public String toString() {
        return "[" + from + ", " + (to == null ? "end" : to.toString()) + ")";
    }
}
