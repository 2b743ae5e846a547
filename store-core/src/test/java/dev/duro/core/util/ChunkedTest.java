package dev.duro.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ChunkedTest {
    private static final int[] LENGTHS = {
        0, 1, Chunked.CHUNK - 1, Chunked.CHUNK, Chunked.CHUNK + 1, 3 * Chunked.CHUNK + 5
    };

    @Test
    void aChunkedCopyReadsBackEveryElementAndNoChunkIsLongerThanAChunk() {
        Random random = new Random(7);
        for (int length : LENGTHS) {
            String[] objects = new String[length];
            long[] longs = new long[length];
            int[] ints = new int[length];
            for (int i = 0; i < length; i++) {
                objects[i] = random.nextInt(4) == 0 ? null : "v" + random.nextInt();
                longs[i] = random.nextLong();
                ints[i] = random.nextInt();
            }
            String[][] objectChunks = Chunked.copy(objects, null);
            long[][] longChunks = Chunked.copy(longs, null);
            int[][] intChunks = Chunked.copy(ints, null);
            assertEquals((length + Chunked.CHUNK - 1) / Chunked.CHUNK, objectChunks.length, "chunks of " + length);
            assertEquals(objectChunks.length, longChunks.length);
            assertEquals(objectChunks.length, intChunks.length);
            int total = 0;
            for (int c = 0; c < objectChunks.length; c++) {
                assertTrue(objectChunks[c].length <= Chunked.CHUNK && longChunks[c].length <= Chunked.CHUNK);
                assertEquals(objectChunks[c].length, intChunks[c].length);
                total += objectChunks[c].length;
            }
            assertEquals(length, total);
            for (int i = 0; i < length; i++) {
                assertEquals(objects[i], Chunked.at(objectChunks, i), "element " + i + " of " + length);
                assertEquals(longs[i], Chunked.at(longChunks, i), "element " + i + " of " + length);
                assertEquals(ints[i], Chunked.at(intChunks, i), "element " + i + " of " + length);
            }
        }
    }

    @Test
    void aCopyKeepsWhatTheSourceHeldWhenCopiedAndItsComponentType() {
        int length = Chunked.CHUNK + 3;
        Integer[][] source = new Integer[length][];
        long[] longs = new long[length];
        for (int i = 0; i < length; i++) {
            source[i] = new Integer[] {i};
            longs[i] = i;
        }
        Integer[][][] copy = Chunked.copy(source, null);
        long[][] longCopy = Chunked.copy(longs, null);
        for (int i = 0; i < length; i++) {
            source[i] = null;
            longs[i] = -1;
        }
        assertEquals(Integer[][].class, copy[0].getClass(), "a chunk has the source's type");
        for (int i = 0; i < length; i++) {
            assertEquals(i, Chunked.at(copy, i)[0]);
            assertEquals(i, Chunked.at(longCopy, i));
        }
    }

    @Test
    void aCopyIntoChunksOfTheSameShapeReusesThemAndAnyOtherShapeGetsNewOnes() {
        int length = 2 * Chunked.CHUNK + 9;
        long[] first = new long[length];
        long[] second = new long[length];
        String[] names = new String[length];
        for (int i = 0; i < length; i++) {
            first[i] = i;
            second[i] = -i;
            names[i] = "n" + i;
        }
        long[][] chunks = Chunked.copy(first, null);
        long[][] again = Chunked.copy(second, chunks);
        assertSame(chunks, again, "same shape: copied into the chunks handed back");
        for (int i = 0; i < length; i++) {
            assertEquals(-i, Chunked.at(again, i));
        }
        assertNotSame(chunks, Chunked.copy(new long[length + 1], chunks), "one element more: new chunks");
        assertNotSame(chunks, Chunked.copy(new long[length - 1], chunks), "one element fewer: new chunks");
        String[][] named = Chunked.copy(names, null);
        Object[][] objects = Chunked.copy(new Object[length], (Object[][]) named);
        assertNotSame(named, objects, "another element type: new chunks");
        assertEquals(Object[].class, objects[0].getClass());
        Chunked.clear(named);
        for (int i = 0; i < length; i++) {
            assertEquals(null, Chunked.at(named, i), "cleared: element " + i);
        }
        int[][] empty = Chunked.copy(new int[0], null);
        assertSame(empty, Chunked.copy(new int[0], empty));
    }
}
