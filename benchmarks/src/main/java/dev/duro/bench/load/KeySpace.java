package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.ToIntFunction;
import javax.annotation.Nullable;

/**
 * Keys of each partition (4-byte big-endian integers, as the paper's workloads use 4-byte keys), found by asking
 * the system's partitioner, and a uniform or zipfian choice among them.
 */
public final class KeySpace {
    private final Bytes[][] keysByPartition;
    private final @Nullable double[] zipfCumulative;

    /**
     * @param partitions how many partitions the system has (1 when it is not partitioned)
     * @param partitionOf the partition holding a key
     */
    public KeySpace(int partitions, ToIntFunction<Bytes> partitionOf, int keysPerPartition, double zipfSkew) {
        keysByPartition = new Bytes[partitions][keysPerPartition];
        int[] filled = new int[partitions];
        int remaining = partitions;
        for (int candidate = 0; remaining > 0; candidate++) {
            Bytes key = Bytes.wrap(new byte[] {
                (byte) (candidate >>> 24), (byte) (candidate >>> 16), (byte) (candidate >>> 8), (byte) candidate
            });
            int partition = partitionOf.applyAsInt(key);
            if (filled[partition] < keysPerPartition) {
                keysByPartition[partition][filled[partition]++] = key;
                if (filled[partition] == keysPerPartition) {
                    remaining--;
                }
            }
            if (candidate == Integer.MAX_VALUE) {
                throw new IllegalStateException("the partitioner leaves a partition without enough 4-byte keys");
            }
        }
        zipfCumulative = zipfSkew > 0 ? cumulativeZipf(keysPerPartition, zipfSkew) : null;
    }

    private static double[] cumulativeZipf(int keys, double skew) {
        double[] cumulative = new double[keys];
        double sum = 0;
        for (int rank = 0; rank < keys; rank++) {
            sum += 1.0 / Math.pow(rank + 1, skew);
            cumulative[rank] = sum;
        }
        for (int rank = 0; rank < keys; rank++) {
            cumulative[rank] /= sum;
        }
        return cumulative;
    }

    public int partitions() {
        return keysByPartition.length;
    }

    public int keysPerPartition() {
        return keysByPartition[0].length;
    }

    /** A key of {@code partition}, uniform or zipfian by rank. */
    public Bytes pick(int partition, SplittableRandom random) {
        return keysByPartition[partition][pickRank(random)];
    }

    /**
     * A rank in {@code [0, keysPerPartition)}, uniform or zipfian (rank 0 the most likely), for workloads that
     * address entities by rank; {@link #pick} is {@code key(partition, pickRank(random))}.
     */
    public int pickRank(SplittableRandom random) {
        int keys = keysPerPartition();
        if (zipfCumulative == null) {
            return random.nextInt(keys);
        }
        int index = Arrays.binarySearch(zipfCumulative, random.nextDouble());
        return Math.min(keys - 1, index >= 0 ? index : -index - 1);
    }

    /** The key of rank {@code rank} in {@code partition} (a fixed order, for workloads that address entities). */
    public Bytes key(int partition, int rank) {
        return keysByPartition[partition][rank];
    }
}
