package dev.duro.core.partition;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;

/**
 * Spreads keys evenly over {@code n} partitions by hashing them: partition = unsigned murmur3-32 of the key
 * bytes, modulo {@code n}.
 *
 * <p>The hash must give the same answer on every JVM and every release, since clients and servers of different
 * versions share one cluster and the data already stored sits where the hash put it. Hence Guava's
 * {@code murmur3_32_fixed} with seed 0 (the legacy {@code murmur3_32} mishandles some inputs and is deprecated),
 * never {@link Object#hashCode()}. <b>Changing the function, the seed or the reduction re-partitions every
 * stored key</b>: it needs a data migration, not a code change. A test pins known outputs so it cannot change
 * by accident.
 */
public final class HashPartitioner implements Partitioner {
    private static final HashFunction HASH = Hashing.murmur3_32_fixed();

    private final int partitionCount;

    /** @param partitionCount how many partitions, 1 to {@link Limits#PARTITIONS_MAX} */
    public HashPartitioner(int partitionCount) {
        if (partitionCount < 1 || partitionCount > Limits.PARTITIONS_MAX) {
            throw new IllegalArgumentException("hash partitioner needs between 1 and " + Limits.PARTITIONS_MAX
                    + " partitions, was " + partitionCount);
        }
        this.partitionCount = partitionCount;
    }

    @Override
    public int partitionCount() {
        return partitionCount;
    }

    @Override
    public int partitionOf(Bytes key) {
        long hash = Integer.toUnsignedLong(HASH.hashBytes(key.unsafeArray()).asInt());
        return (int) (hash % partitionCount);
    }

    @Override
    public String describe() {
        return "hash(murmur3_32_fixed, seed 0) over " + partitionCount + " partitions";
    }

    @Override
    public String toString() {
        return describe();
    }
}
