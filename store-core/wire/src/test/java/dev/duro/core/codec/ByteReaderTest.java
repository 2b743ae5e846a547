package dev.duro.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ByteReaderTest {
    private static ByteReader reader(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return new ByteReader(out);
    }

    private static ByteReader reader(ByteWriter out) {
        return new ByteReader(out.toByteArray());
    }

    private static String malformed(Executable read) {
        return assertThrows(MalformedInputException.class, read).getMessage();
    }

    @Test
    void varintsRoundTripAtEveryEdge() {
        long[] edges = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, 1L << 32, Long.MAX_VALUE, -1, Long.MIN_VALUE
        };
        for (long value : edges) {
            ByteReader in = reader(new ByteWriter().writeVarLong(value));
            assertEquals(value, in.readVarLong());
            in.expectEnd("varint");
        }
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            long value = random.nextLong() >>> random.nextInt(64);
            assertEquals(value, reader(new ByteWriter().writeVarLong(value)).readVarLong());
        }
    }

    @Test
    void tenByteVarintMayCarryOnlyTheTopBit() {
        assertEquals(
                -1L,
                reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)
                        .readVarLong());
        assertTrue(malformed(() -> reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02)
                        .readVarLong())
                .contains("overflows"));
        // A tenth byte that asks for an eleventh is rejected without reading further.
        malformed(() -> reader(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00)
                .readVarLong());
    }

    @Test
    void truncatedVarintIsMalformed() {
        assertTrue(malformed(() -> reader(0x80).readVarLong()).contains("truncated"));
        malformed(() -> reader().readVarLong());
    }

    @Test
    void varIntEnforcesItsRange() {
        assertEquals(300, reader(new ByteWriter().writeVarLong(300)).readVarInt(300, "n"));
        assertTrue(malformed(() -> reader(new ByteWriter().writeVarLong(301)).readVarInt(300, "n"))
                .contains("n out of range"));
        malformed(() -> reader(new ByteWriter().writeVarLong(-1)).readVarInt(Integer.MAX_VALUE, "n"));
    }

    @Test
    void countsAreBoundedByTheBytesLeft() {
        assertEquals(2, reader(0, 0, 0, 2, 9, 9).readCount());
        assertTrue(malformed(() -> reader(0, 0, 0, 3, 9, 9).readCount()).contains("exceeds"));
        malformed(() -> reader(0xff, 0xff, 0xff, 0xff).readCount()); // negative
        malformed(() -> reader(0x7f, 0xff, 0xff, 0xff).readCount()); // huge
        malformed(() -> reader(0, 0, 1).readCount()); // truncated
    }

    @Test
    void lengthsAreBoundedByTheBytesLeft() {
        assertEquals(2, reader(2, 9, 9).readLength("n"));
        assertEquals(0, reader(0).readLength("n"));
        malformed(() -> reader(3, 9, 9).readLength("n"));
        String message = malformed(
                () -> reader(new ByteWriter().writeVarLong(-1).writeByte(0)).readLength("n"));
        assertTrue(message.contains("18446744073709551615"), message);
    }

    @Test
    void byteStringsCheckTheirLimitAndTheInput() {
        ByteReader in = reader(new ByteWriter().writeBytes(Bytes.utf8("abc")).writeBytes(Bytes.EMPTY));
        assertEquals(Bytes.utf8("abc"), in.readBytes(3, "key"));
        assertEquals(Bytes.EMPTY, in.readBytes(0, "key"));
        assertFalse(in.hasRemaining());
        malformed(() -> reader(new ByteWriter().writeBytes(Bytes.utf8("abc"))).readBytes(2, "key"));
        malformed(() -> reader(3, 'a', 'b').readBytes(10, "key"));
        assertEquals(Bytes.utf8("ab"), reader('a', 'b', 'c').readBytesExactly(2, "key"));
        malformed(() -> reader('a').readBytesExactly(2, "key"));
        malformed(() -> reader('a').readBytesExactly(-1, "key"));
    }

    @Test
    void nullableByteStrings() {
        ByteReader in = reader(new ByteWriter().writeNullableBytes(null).writeNullableBytes(Bytes.utf8("v")));
        assertNull(in.readNullableBytes());
        assertEquals(Bytes.utf8("v"), in.readNullableBytes(1, "value"));
        malformed(() -> reader(2, 0).readNullableBytes());
    }

    @Test
    void booleansAreZeroOrOne() {
        assertFalse(reader(0).readBoolean());
        assertTrue(reader(1).readBoolean());
        malformed(() -> reader(2).readBoolean());
    }

    @Test
    void fixedWidthIntegersRoundTripAndDetectTruncation() {
        ByteReader in =
                reader(new ByteWriter().writeInt(-5).writeLong(Long.MIN_VALUE).writeLong(42));
        assertEquals(-5, in.readInt());
        assertEquals(Long.MIN_VALUE, in.readLong());
        assertEquals(42, in.readLong());
        malformed(() -> reader(1, 2, 3).readInt());
        malformed(() -> reader(1, 2, 3, 4, 5, 6, 7).readLong());
    }

    @Test
    void utf8IsDecodedStrictly() {
        String text = "añ中😀";
        assertEquals(text, reader(new ByteWriter().writeUtf8(text)).readUtf8(100, "s"));
        assertEquals("", reader(0).readUtf8(0, "s"));
        malformed(() -> reader(2, 0xc3, 0x28).readUtf8(10, "s")); // bad continuation byte
        malformed(() -> reader(2, 0xc0, 0x80).readUtf8(10, "s")); // overlong NUL
        malformed(() -> reader(3, 0xed, 0xa0, 0x80).readUtf8(10, "s")); // an encoded surrogate
        malformed(() -> reader(2, 0xe2, 0x82).readUtf8(10, "s")); // cut inside a character
        malformed(() -> reader(3, 'a', 'b').readUtf8(10, "s")); // truncated
        malformed(() -> reader(3, 'a', 'b', 'c').readUtf8(2, "s")); // over its maximum
    }

    @Test
    void expectEndRejectsTrailingBytes() {
        ByteReader in = reader(1, 2);
        in.readByte();
        assertTrue(malformed(() -> in.expectEnd("frame")).contains("1 unexpected trailing bytes"));
        in.readByte();
        in.expectEnd("frame");
    }

    @Test
    void aSliceNeverReadsPastItsEnd() {
        byte[] buffer = {9, 1, 2, 9};
        ByteReader in = new ByteReader(buffer, 1, 2);
        assertEquals(2, in.remaining());
        assertEquals(1, in.readByte());
        assertEquals(2, in.readByte());
        malformed(in::readByte);
        assertThrows(IllegalArgumentException.class, () -> new ByteReader(buffer, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> new ByteReader(buffer, -1, 1));
    }
}
