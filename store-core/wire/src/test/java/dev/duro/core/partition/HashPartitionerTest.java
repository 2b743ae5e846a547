package dev.duro.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class HashPartitionerTest {
    /**
     * Pinned outputs. If this test fails, the hash changed, and every cluster's stored data would now sit in the
     * wrong partition: restore the old function instead of updating these numbers.
     */
    @Test
    void knownKeysStayInTheirPartitionsForever() {
        HashPartitioner partitioner = new HashPartitioner(1024);
        // murmur3_32_fixed(seed 0) of these keys, as unsigned ints: 0, 1280413405, 2977523120, 3390547713.
        assertEquals(0, partitioner.partitionOf(Bytes.EMPTY));
        assertEquals(733, partitioner.partitionOf(Bytes.utf8("alice")));
        assertEquals(432, partitioner.partitionOf(Bytes.utf8("user:000042")));
        assertEquals(769, partitioner.partitionOf(Bytes.wrap(new byte[] {0, (byte) 0xff, 7, (byte) 0x80})));
        assertEquals(1280413405L % 3, new HashPartitioner(3).partitionOf(Bytes.utf8("alice")));
    }

    @Test
    void sameKeyAlwaysMapsToSamePartitionAndWithinRange() {
        HashPartitioner first = new HashPartitioner(7);
        HashPartitioner second = new HashPartitioner(7);
        for (int i = 0; i < 1_000; i++) {
            Bytes key = Bytes.utf8("key-" + i);
            int partition = first.partitionOf(key);
            assertTrue(partition >= 0 && partition < 7, "partition out of range: " + partition);
            assertEquals(partition, second.partitionOf(Bytes.copyOf(key.toByteArray())));
        }
    }

    @Test
    void hundredThousandKeysSpreadEvenlyOverSixteenPartitions() {
        int partitions = 16;
        int keys = 100_000;
        HashPartitioner partitioner = new HashPartitioner(partitions);
        int[] counts = new int[partitions];
        for (int i = 0; i < keys; i++) {
            counts[
                    partitioner.partitionOf(
                            Bytes.wrap(ByteBuffer.allocate(4).putInt(i).array()))]++;
        }
        double expected = (double) keys / partitions;
        for (int p = 0; p < partitions; p++) {
            // A binomial count has a standard deviation of about 77 here; 5% (6,250 ± 312) is > 4 sigma.
            assertTrue(Math.abs(counts[p] - expected) < expected * 0.05, "partition " + p + " got " + counts[p]);
        }
    }

    @Test
    void onePartitionHoldsEverything() {
        HashPartitioner partitioner = new HashPartitioner(1);
        assertEquals(0, partitioner.partitionOf(Bytes.utf8("anything")));
    }

    @Test
    void partitionCountOutsideTheSupportedRangeIsRejectedByName() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> new HashPartitioner(0));
        assertTrue(zero.getMessage().contains("was 0"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HashPartitioner(4097));
        assertEquals("hash(murmur3_32_fixed, seed 0) over 3 partitions", new HashPartitioner(3).describe());
    }
}
