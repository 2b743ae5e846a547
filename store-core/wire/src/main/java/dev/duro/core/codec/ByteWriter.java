package dev.duro.core.codec;

import dev.duro.core.Bytes;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.annotation.Nullable;

/**
 * A big-endian byte encoder with the primitives every Duro encoding is built from: fixed-width integers,
 * unsigned varints and length-prefixed byte strings.
 *
 * <p>It either grows a buffer in memory ({@link #toByteArray}) or, made by {@link #streamingTo}, passes what it
 * encodes on to a stream through a fixed buffer: a partition's snapshot is encoded that way, so that writing a
 * state of gigabytes needs kilobytes besides the state itself.
 */
public final class ByteWriter {
    private static final int STREAM_BUFFER_BYTES = 64 << 10;

    private byte[] buffer;
    private int position;
    private final @Nullable OutputStream sink;
    /** Bytes already passed on to {@link #sink}. */
    private long flushed;

    public ByteWriter() {
        this(256);
    }

    public ByteWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
        sink = null;
    }

    private ByteWriter(OutputStream sink) {
        buffer = new byte[STREAM_BUFFER_BYTES];
        this.sink = sink;
    }

    /**
     * An encoder that writes to {@code sink} as it goes; call {@link #flush} at the end. An {@link IOException}
     * of the sink surfaces as an {@link UncheckedIOException} from the write that met it.
     */
    public static ByteWriter streamingTo(OutputStream sink) {
        return new ByteWriter(sink);
    }

    /** Bytes encoded so far, including those already passed on to the stream. */
    public long size() {
        return flushed + position;
    }

    public byte[] toByteArray() {
        if (sink != null) {
            throw new IllegalStateException("a streaming writer keeps no copy of what it wrote");
        }
        return Arrays.copyOf(buffer, position);
    }

    /** Passes everything encoded so far on to the stream (a streaming writer only). */
    public void flush() {
        OutputStream out = streamingSink();
        drain();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private OutputStream streamingSink() {
        if (sink == null) {
            throw new IllegalStateException("not a streaming writer");
        }
        return sink;
    }

    /** Passes the buffer on to the stream and empties it. */
    private void drain() {
        passOn(buffer, position);
        position = 0;
    }

    private void passOn(byte[] bytes, int length) {
        try {
            streamingSink().write(bytes, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        flushed += length;
    }

    private void ensure(int extra) {
        if (position + extra > buffer.length) {
            if (sink != null) {
                drain(); // every caller asks for at most the buffer's size (writeRaw bypasses it when larger)
                return;
            }
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
        return writeRaw(bytes, bytes.length);
    }

    private ByteWriter writeRaw(byte[] bytes, int length) {
        if (sink != null && length > buffer.length) {
            drain();
            passOn(bytes, length); // straight through: no copy into the buffer
            return this;
        }
        ensure(length);
        System.arraycopy(bytes, 0, buffer, position, length);
        position += length;
        return this;
    }

    /**
     * Appends what this (in-memory) writer holds to {@code target} and empties this one, keeping its buffer: how a
     * snapshot moves a part encoded under a lock on to the file outside it.
     */
    public void moveTo(ByteWriter target) {
        if (sink != null) {
            throw new IllegalStateException("a streaming writer keeps no copy of what it wrote");
        }
        target.writeRaw(buffer, position);
        position = 0;
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
