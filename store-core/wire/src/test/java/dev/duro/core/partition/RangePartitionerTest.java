package dev.duro.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangePartitionerTest {
    private static final Bytes G = Bytes.utf8("g");
    private static final Bytes N = Bytes.utf8("n");
    private static final Bytes T = Bytes.utf8("t");

    private final RangePartitioner partitioner = new RangePartitioner(List.of(G, N, T));

    @Test
    void eachSplitPointOpensTheNextPartition() {
        assertEquals(4, partitioner.partitionCount());
        assertEquals(0, partitioner.partitionOf(Bytes.EMPTY));
        assertEquals(0, partitioner.partitionOf(Bytes.utf8("fzzz")));
        assertEquals(1, partitioner.partitionOf(G));
        assertEquals(1, partitioner.partitionOf(Bytes.utf8("g\0")));
        assertEquals(1, partitioner.partitionOf(Bytes.utf8("mzzz")));
        assertEquals(2, partitioner.partitionOf(N));
        assertEquals(2, partitioner.partitionOf(Bytes.utf8("s")));
        assertEquals(3, partitioner.partitionOf(T));
        assertEquals(3, partitioner.partitionOf(Bytes.utf8("zzzz")));
    }

    @Test
    void bytesCompareUnsignedSoHighBytesSortLast() {
        RangePartitioner bySign = new RangePartitioner(List.of(Bytes.wrap(new byte[] {(byte) 0x80})));
        assertEquals(0, bySign.partitionOf(Bytes.wrap(new byte[] {0x7f, (byte) 0xff})));
        assertEquals(1, bySign.partitionOf(Bytes.wrap(new byte[] {(byte) 0x80})));
        assertEquals(1, bySign.partitionOf(Bytes.wrap(new byte[] {(byte) 0xff})));
    }

    @Test
    void noSplitPointsMeansOnePartition() {
        RangePartitioner single = new RangePartitioner(List.of());
        assertEquals(1, single.partitionCount());
        assertEquals(0, single.partitionOf(Bytes.utf8("anything")));
    }

    @Test
    void everyKeyLandsInTheRangeThatHoldsIt() {
        for (int i = 0; i < 26 * 26; i++) {
            Bytes key = Bytes.utf8("" + (char) ('a' + i / 26) + (char) ('a' + i % 26));
            int partition = partitioner.partitionOf(key);
            List<Bytes> splits = partitioner.splitPoints();
            assertTrue(partition == 0 || key.compareTo(splits.get(partition - 1)) >= 0, key + " below its range");
            assertTrue(partition == splits.size() || key.compareTo(splits.get(partition)) < 0, key + " above range");
        }
    }

    @Test
    void unsortedSplitPointsAreRejectedNamingTheCulprit() {
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> new RangePartitioner(List.of(G, T, N)));
        assertEquals(
                "split points must ascend: split point 2 \"n\" sorts before split point 1 \"t\"", error.getMessage());
    }

    @Test
    void duplicateSplitPointsAreRejectedAsAnEmptyPartition() {
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> new RangePartitioner(List.of(G, N, N)));
        assertEquals("split point 2 \"n\" duplicates split point 1: partition 2 would hold no key", error.getMessage());
    }

    @Test
    void emptyOrMissingSplitPointsAreRejected() {
        IllegalArgumentException empty =
                assertThrows(IllegalArgumentException.class, () -> new RangePartitioner(List.of(Bytes.EMPTY, G)));
        assertEquals("split point 0 is the empty key: partition 0 would hold no key", empty.getMessage());
        IllegalArgumentException missing =
                assertThrows(IllegalArgumentException.class, () -> new RangePartitioner(Arrays.asList(G, null)));
        assertEquals("split point 1 is null", missing.getMessage());
    }

    @Test
    void tooManySplitPointsAreRejected() {
        List<Bytes> splits = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
            splits.add(Bytes.utf8(String.format("%05d", i)));
        }
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> new RangePartitioner(splits));
        assertTrue(error.getMessage().contains("at most 4095 split points"), error.getMessage());
    }

    @Test
    void describeListsTheSplitPoints() {
        assertEquals("range over 4 partitions split at [\"g\", \"n\", \"t\"]", partitioner.describe());
    }
}
