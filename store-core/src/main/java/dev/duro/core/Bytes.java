package dev.duro.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string: the type of every key and value in Duro.
 *
 * <p>Ordered lexicographically by unsigned bytes, so range partitioning and sorted output agree with the byte
 * order a user would expect. The hash code is cached because keys are hashed many times on the commit path.
 */
public final class Bytes implements Comparable<Bytes> {
    public static final Bytes EMPTY = new Bytes(new byte[0]);

    private final byte[] bytes;
    private int hash;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
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

    /** The backing array, for codecs that copy it out at once. Never modify it. */
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
            h = Arrays.hashCode(bytes);
            hash = h == 0 ? 1 : h;
        }
        return hash;
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
