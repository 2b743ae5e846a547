package dev.duro.core.util;

import java.lang.reflect.Array;
import java.util.Arrays;
import javax.annotation.Nullable;

/**
 * Copies of arrays in chunks of {@value #CHUNK} elements, read back by index.
 *
 * <p>A snapshot's freeze copies the certification window's slot arrays and the retained outcomes' ring and table
 * (docs/replication.md). Copied whole, each such array of a hundred thousand elements or more is a humongous object
 * to G1 (half a region or more: 512 KiB with the nodes' 1 GiB heap): it is allocated straight into the old
 * generation, and an allocation that finds no room forces a young collection then and there, with the engine's lock
 * held (docs/performance.md, "Freezes without humongous copies, then without allocation"). A chunk is at most 128 KiB
 * (16,384 longs), an ordinary young object; and a copy handed back may be copied into again, allocating nothing.
 */
public final class Chunked {
    /** Elements per chunk: a power of two, so that an index splits by shift and mask. */
    public static final int CHUNK = 1 << 14;

    private static final int SHIFT = 14;
    private static final int MASK = CHUNK - 1;

    private Chunked() {}

    /**
     * A copy of {@code source} in chunks, which {@link #at(Object[][], int)} reads: made in {@code reuse}'s chunks when
     * they have its length (a copy no longer read, handed back), so that the copy allocates nothing; else (and when
     * {@code reuse} is null) in new ones.
     */
    @SuppressWarnings("unchecked")
    public static <T> T[][] copy(T[] source, @Nullable T[][] reuse) {
        return (T[][]) chunks(source, source.length, reuse);
    }

    /** As {@link #copy(Object[], Object[][])}. */
    public static long[][] copy(long[] source, @Nullable long[][] reuse) {
        return (long[][]) chunks(source, source.length, reuse);
    }

    /** As {@link #copy(Object[], Object[][])}. */
    public static int[][] copy(int[] source, @Nullable int[][] reuse) {
        return (int[][]) chunks(source, source.length, reuse);
    }

    /**
     * An array of arrays of {@code source}'s type, each a copy of the next {@link #CHUNK} elements (fewer last):
     * {@code reuse} itself when it has that shape.
     */
    private static Object chunks(Object source, int length, @Nullable Object reuse) {
        Class<?> type = source.getClass();
        int count = (length + CHUNK - 1) >>> SHIFT;
        if (reuse != null
                && reuse.getClass() == type.arrayType()
                && Array.getLength(reuse) == count
                && (count == 0 || Array.getLength(Array.get(reuse, count - 1)) == length - (count - 1) * CHUNK)) {
            for (int c = 0; c < count; c++) {
                System.arraycopy(source, c * CHUNK, Array.get(reuse, c), 0, Math.min(CHUNK, length - c * CHUNK));
            }
            return reuse;
        }
        Object chunks = Array.newInstance(type, count);
        for (int c = 0; c < count; c++) {
            int size = Math.min(CHUNK, length - c * CHUNK);
            Object chunk = Array.newInstance(type.getComponentType(), size);
            System.arraycopy(source, c * CHUNK, chunk, 0, size);
            Array.set(chunks, c, chunk);
        }
        return chunks;
    }

    /**
     * Drops every reference a copy holds, once it has been read for good, so that a copy kept for reuse does not keep
     * what it referred to alive until the next copy into it.
     */
    public static void clear(Object[][] chunks) {
        for (Object[] chunk : chunks) {
            Arrays.fill(chunk, null);
        }
    }

    /** Element {@code index} of the array {@code chunks} copies. */
    public static <T> T at(T[][] chunks, int index) {
        return chunks[index >>> SHIFT][index & MASK];
    }

    /** Element {@code index} of the array {@code chunks} copies. */
    public static long at(long[][] chunks, int index) {
        return chunks[index >>> SHIFT][index & MASK];
    }

    /** Element {@code index} of the array {@code chunks} copies. */
    public static int at(int[][] chunks, int index) {
        return chunks[index >>> SHIFT][index & MASK];
    }
}
