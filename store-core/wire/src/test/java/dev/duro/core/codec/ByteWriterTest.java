package dev.duro.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class ByteWriterTest {
    private static byte[] varint(long value) {
        return new ByteWriter().writeVarLong(value).toByteArray();
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void varintsAreLittleEndianBase128() {
        assertArrayEquals(bytes(0x00), varint(0));
        assertArrayEquals(bytes(0x7f), varint(127));
        assertArrayEquals(bytes(0x80, 0x01), varint(128));
        assertArrayEquals(bytes(0xff, 0x7f), varint(16_383));
        assertArrayEquals(bytes(0x80, 0x80, 0x01), varint(16_384));
    }

    @Test
    void varintLengthsAtTheExtremes() {
        assertEquals(5, varint(Integer.MAX_VALUE).length);
        assertEquals(9, varint(Long.MAX_VALUE).length);
        // Negative values are written as unsigned 64-bit: they take the full ten bytes, the last holding one bit.
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), varint(-1));
        assertArrayEquals(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), varint(Long.MIN_VALUE));
    }

    @Test
    void fixedWidthIntegersAreBigEndian() {
        assertArrayEquals(
                bytes(0x01, 0x02, 0x03, 0x04),
                new ByteWriter().writeInt(0x01020304).toByteArray());
        assertArrayEquals(
                bytes(0x80, 0, 0, 0, 0, 0, 0, 0x01),
                new ByteWriter().writeLong(Long.MIN_VALUE + 1).toByteArray());
    }

    @Test
    void byteStringsArePrefixedWithTheirLength() {
        ByteWriter out = new ByteWriter().writeBytes(Bytes.utf8("ab")).writeNullableBytes(null);
        out.writeNullableBytes(Bytes.EMPTY);
        assertArrayEquals(bytes(2, 'a', 'b', 0, 1, 0), out.toByteArray());
    }

    @Test
    void utf8StringsAreLengthPrefixedBytes() {
        assertArrayEquals(
                bytes(3, 'a', 0xc3, 0xa9), new ByteWriter().writeUtf8("aé").toByteArray());
        // An unpaired surrogate has no UTF-8 form.
        assertArrayEquals(
                bytes(2, 'x', '?'), new ByteWriter().writeUtf8("x\ud800").toByteArray());
    }

    @Test
    void growsPastItsInitialCapacityAndHandsOutCopies() {
        ByteWriter out = new ByteWriter(1);
        for (int i = 0; i < 10_000; i++) {
            out.writeByte(i);
        }
        assertEquals(10_000, out.size());
        byte[] first = out.toByteArray();
        assertEquals((byte) 9_999, first[9_999]);
        assertNotSame(first, out.toByteArray());
        assertArrayEquals(first, out.toByteArray());
    }

    @Test
    void aStreamingWriterPassesOnExactlyWhatAnInMemoryOneHolds() {
        byte[] large = new byte[200_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ByteWriter streaming = ByteWriter.streamingTo(sink);
        ByteWriter inMemory = new ByteWriter();
        for (ByteWriter out : new ByteWriter[] {streaming, inMemory}) {
            for (int i = 0; i < 30_000; i++) { // small writes that fill and drain the buffer many times
                out.writeVarLong(i * 1_000_003L).writeInt(i);
            }
            out.writeRaw(large); // larger than the buffer: bypasses it
            out.writeUtf8("end");
        }
        assertEquals(inMemory.size(), streaming.size());
        streaming.flush();
        assertArrayEquals(inMemory.toByteArray(), sink.toByteArray());
        assertThrows(IllegalStateException.class, streaming::toByteArray);
        assertThrows(IllegalStateException.class, inMemory::flush);
    }

    @Test
    void aFailingStreamSurfacesAsUncheckedIo() {
        ByteWriter out = ByteWriter.streamingTo(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("disk full");
            }
        });
        out.writeInt(1);
        UncheckedIOException failure = assertThrows(UncheckedIOException.class, out::flush);
        assertEquals("disk full", failure.getCause().getMessage());
    }
}
