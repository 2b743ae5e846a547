package dev.duro.core.codec;

import dev.duro.core.Bytes;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import javax.annotation.Nullable;

/**
 * Reads what {@link ByteWriter} wrote, from untrusted input. Every read checks the remaining length first, and
 * every count or length is checked against what the input can still hold before anything is allocated, so any
 * byte string yields a value or a {@link MalformedInputException}: never a crash, a hang or a huge allocation.
 */
public final class ByteReader {
    private final byte[] buffer;
    private final int end;
    private int position;

    public ByteReader(byte[] buffer) {
        this(buffer, 0, buffer.length);
    }

    public ByteReader(byte[] buffer, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > buffer.length) {
            throw new IllegalArgumentException("slice out of range");
        }
        this.buffer = buffer;
        this.position = offset;
        this.end = offset + length;
    }

    public int remaining() {
        return end - position;
    }

    public boolean hasRemaining() {
        return position < end;
    }

    private void need(int bytes, String what) {
        if (end - position < bytes) {
            throw new MalformedInputException(
                    "truncated input: " + what + " needs " + bytes + " bytes, " + (end - position) + " left");
        }
    }

    public int readByte() {
        need(1, "byte");
        return buffer[position++] & 0xFF;
    }

    public boolean readBoolean() {
        int value = readByte();
        if (value > 1) {
            throw new MalformedInputException("boolean byte out of range: " + value);
        }
        return value == 1;
    }

    public int readInt() {
        need(4, "int");
        int value = ((buffer[position] & 0xFF) << 24)
                | ((buffer[position + 1] & 0xFF) << 16)
                | ((buffer[position + 2] & 0xFF) << 8)
                | (buffer[position + 3] & 0xFF);
        position += 4;
        return value;
    }

    public long readLong() {
        long high = readInt() & 0xFFFFFFFFL;
        return (high << 32) | (readInt() & 0xFFFFFFFFL);
    }

    public long readVarLong() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            if (shift == 63 && b > 1) {
                throw new MalformedInputException("varint overflows 64 bits");
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new MalformedInputException("varint longer than 10 bytes");
    }

    /** A non-negative int varint no larger than {@code max}. */
    public int readVarInt(int max, String what) {
        long value = readVarLong();
        if (value < 0 || value > max) {
            throw new MalformedInputException(what + " out of range: " + value + " (max " + max + ")");
        }
        return (int) value;
    }

    /**
     * A count of items that follow, each taking at least one byte: rejected when the input cannot hold that
     * many, so a forged count never triggers a large allocation.
     */
    public int readCount() {
        int count = readInt();
        if (count < 0 || count > remaining()) {
            throw new MalformedInputException("count " + count + " exceeds the " + remaining() + " bytes left");
        }
        return count;
    }

    /**
     * A varint length of a byte string, or a count of items that follow and take at least one byte each. A value
     * larger than the bytes left is malformed: the input cannot hold it, so a forged length never triggers a large
     * allocation or a long loop. Callers compare the result with configured limits only after this check, which is
     * what tells input that really holds too much apart from input that is merely inconsistent.
     */
    public int readLength(String what) {
        long value = readVarLong();
        if (value < 0 || value > remaining()) {
            throw new MalformedInputException(
                    what + " " + Long.toUnsignedString(value) + " exceeds the " + remaining() + " bytes left");
        }
        return (int) value;
    }

    /** Exactly {@code length} bytes, typically after {@link #readLength}. */
    public Bytes readBytesExactly(int length, String what) {
        if (length < 0) {
            throw new MalformedInputException(what + " has a negative length: " + length);
        }
        need(length, what);
        Bytes out = Bytes.copyOf(buffer, position, length);
        position += length;
        return out;
    }

    /**
     * A varint-length-prefixed UTF-8 string of at most {@code maxBytes} bytes. Invalid UTF-8 is malformed rather
     * than silently replaced, so a decoded string always re-encodes to the same bytes.
     */
    public String readUtf8(int maxBytes, String what) {
        int length = readVarInt(maxBytes, what + " length");
        need(length, what);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports errors instead of replacing
        CharBuffer chars = CharBuffer.allocate(length); // UTF-8 never yields more chars than bytes
        boolean valid = !decoder.decode(ByteBuffer.wrap(buffer, position, length), chars, true)
                        .isError()
                && !decoder.flush(chars).isError();
        if (!valid) {
            throw new MalformedInputException(what + " is not valid UTF-8");
        }
        position += length;
        return chars.flip().toString();
    }

    /** A varint-length-prefixed byte string of at most {@code maxLength} bytes. */
    public Bytes readBytes(int maxLength, String what) {
        int length = readVarInt(maxLength, what + " length");
        need(length, what);
        Bytes out = Bytes.copyOf(buffer, position, length);
        position += length;
        return out;
    }

    public Bytes readBytes() {
        return readBytes(Integer.MAX_VALUE, "bytes");
    }

    public @Nullable Bytes readNullableBytes() {
        return readBoolean() ? readBytes() : null;
    }

    public @Nullable Bytes readNullableBytes(int maxLength, String what) {
        return readBoolean() ? readBytes(maxLength, what) : null;
    }

    /** Fails unless every byte was consumed: trailing garbage is malformed too. */
    public void expectEnd(String what) {
        if (position != end) {
            throw new MalformedInputException(what + ": " + (end - position) + " unexpected trailing bytes");
        }
    }
}
