package dev.duro.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string: the type of every key and value in Duro.
 *
 * <p>Ordered lexicographically by unsigned bytes, so range partitioning and sorted output agree with the byte
 * order a user would expect. The hash code is cached because keys are hashed many times on the commit path.
 *
 * <p>A string of up to {@link #EAGER_HASH_BYTES_MAX} bytes is hashed when it is made, a longer one when first asked.
 * Keys are mostly short, and the commit path asks for their hash many times: with the hash always there, {@link
 * #hashCode} is a field read that the compiler inlines into every caller. Computed on first use instead, its compiled
 * form held the whole hash function, which made it too large to inline, and each of the twenty or so lookups of a
 * transaction's keys paid a call (docs/performance.md, "Short keys hashed when made").
 *
 * <p>The hash code is murmur3's 32-bit hash, not {@link Arrays#hashCode(byte[])}: that polynomial maps the
 * 1,000,000 four-byte big-endian keys below 1,000,000 to only 21,615 distinct values, about 46 keys per value,
 * which turned every map of keys into chains of tree bins and cut commit throughput twentyfold. Only hash maps
 * see this value; nothing may persist it or let it order output (partitioning uses its own pinned hash).
 */
public final class Bytes implements Comparable<Bytes> {
    public static final Bytes EMPTY = new Bytes(new byte[0]);

    /** The longest string hashed when it is made: longer ones, values mostly, are hashed only if asked. */
    static final int EAGER_HASH_BYTES_MAX = 64;

    private final byte[] bytes;
    /** The hash code, or 0 while not computed (a hash of 0 is kept as 1). */
    private int hash;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
        if (bytes.length <= EAGER_HASH_BYTES_MAX) {
            hash = hashOf(bytes);
        }
    }

    /** Copies {@code bytes}; later changes to the array do not change the result. */
    public static Bytes copyOf(byte[] bytes) {
        return new Bytes(bytes.clone());
    }

    /** Copies {@code length} bytes of {@code bytes} starting at {@code offset}. */
    public static Bytes copyOf(byte[] bytes, int offset, int length) {
        return new Bytes(Arrays.copyOfRange(bytes, offset, offset + length));
    }

    /** Takes ownership of {@code bytes}: the caller must never change the array afterwards. */
    public static Bytes wrap(byte[] bytes) {
        return new Bytes(bytes);
    }

    public static Bytes utf8(String text) {
        return new Bytes(text.getBytes(StandardCharsets.UTF_8));
    }

    public int size() {
        return bytes.length;
    }

    public byte byteAt(int index) {
        return bytes[index];
    }

    /** A fresh copy of the content. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    /**
     * The backing array, for codecs that copy it out at once and for the store, which keeps a value's array rather
     * than its wrapper and wraps it again when read. Never modify it.
     */
    public byte[] unsafeArray() {
        return bytes;
    }

    public String toUtf8() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object other) {
        return this == other || (other instanceof Bytes that && Arrays.equals(bytes, that.bytes));
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = hashOf(bytes);
            hash = h;
        }
        return h;
    }

    /** The hash code of {@code data}: never 0, so that 0 can mean "not computed". */
    private static int hashOf(byte[] data) {
        int h = murmur3(data);
        return h == 0 ? 1 : h;
    }

    /** murmur3_x86_32 with seed 0, inlined to hash without allocating. */
    private static int murmur3(byte[] data) {
        int h = 0;
        int blocks = data.length & ~3;
        for (int i = 0; i < blocks; i += 4) {
            int k = (data[i] & 0xff)
                    | (data[i + 1] & 0xff) << 8
                    | (data[i + 2] & 0xff) << 16
                    | (data[i + 3] & 0xff) << 24;
            h ^= mixBlock(k);
            h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
        }
        int tail = 0;
        switch (data.length & 3) {
            case 3:
                tail ^= (data[blocks + 2] & 0xff) << 16;
                // fall through
            case 2:
                tail ^= (data[blocks + 1] & 0xff) << 8;
                // fall through
            case 1:
                tail ^= data[blocks] & 0xff;
                h ^= mixBlock(tail);
                break;
            default:
                break;
        }
        h ^= data.length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    private static int mixBlock(int k) {
        return Integer.rotateLeft(k * 0xcc9e2d51, 15) * 0x1b873593;
    }

    @Override
    public int compareTo(Bytes other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    /** Printable form for logs and errors: text when it is plain ASCII, hex otherwise; long content is cut. */
    @Override
    public String toString() {
        int shown = Math.min(bytes.length, 64);
        boolean printable = true;
        for (int i = 0; i < shown && printable; i++) {
            printable = bytes[i] >= 0x20 && bytes[i] < 0x7f;
        }
        StringBuilder out = new StringBuilder();
        if (printable) {
            out.append('"')
                    .append(new String(bytes, 0, shown, StandardCharsets.US_ASCII))
                    .append('"');
        } else {
            out.append("0x");
            for (int i = 0; i < shown; i++) {
                out.append(Character.forDigit((bytes[i] >> 4) & 0xf, 16))
                        .append(Character.forDigit(bytes[i] & 0xf, 16));
            }
        }
        if (shown < bytes.length) {
            out.append("…(").append(bytes.length).append(" bytes)");
        }
        return out.toString();
    }
}
