package dev.duro.core.codec;

import dev.duro.core.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.annotation.Nullable;

/**
 * A growable big-endian byte buffer with the primitives every Duro encoding is built from: fixed-width
 * integers, unsigned varints and length-prefixed byte strings.
 */
public final class ByteWriter {
    private byte[] buffer;
    private int position;

    public ByteWriter() {
        this(256);
    }

    public ByteWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    public int size() {
        return position;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, position);
    }

    private void ensure(int extra) {
        if (position + extra > buffer.length) {
            long wanted = Math.max((long) buffer.length * 2, (long) position + extra);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("encoding larger than 2 GiB");
            }
            buffer = Arrays.copyOf(buffer, (int) wanted);
        }
    }

    public ByteWriter writeByte(int value) {
        ensure(1);
        buffer[position++] = (byte) value;
        return this;
    }

    public ByteWriter writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    public ByteWriter writeInt(int value) {
        ensure(4);
        buffer[position++] = (byte) (value >>> 24);
        buffer[position++] = (byte) (value >>> 16);
        buffer[position++] = (byte) (value >>> 8);
        buffer[position++] = (byte) value;
        return this;
    }

    public ByteWriter writeLong(long value) {
        writeInt((int) (value >>> 32));
        return writeInt((int) value);
    }

    /** An unsigned LEB128 varint; {@code value} is treated as unsigned. */
    public ByteWriter writeVarLong(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            buffer[position++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer[position++] = (byte) value;
        return this;
    }

    public ByteWriter writeRaw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, position, bytes.length);
        position += bytes.length;
        return this;
    }

    /** A varint length followed by the bytes. */
    public ByteWriter writeBytes(Bytes bytes) {
        byte[] raw = bytes.unsafeArray();
        writeVarLong(raw.length);
        return writeRaw(raw);
    }

    /**
     * A varint byte length followed by the UTF-8 encoding of {@code text}. Unpaired surrogates cannot be encoded and
     * become {@code '?'}, as {@link String#getBytes} does.
     */
    public ByteWriter writeUtf8(String text) {
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        writeVarLong(raw.length);
        return writeRaw(raw);
    }

    /** Like {@link #writeBytes} with {@code null} encoded as length 0 behind a presence byte. */
    public ByteWriter writeNullableBytes(@Nullable Bytes bytes) {
        writeBoolean(bytes != null);
        return bytes == null ? this : writeBytes(bytes);
    }
}
