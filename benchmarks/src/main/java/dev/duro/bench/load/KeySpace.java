package dev.duro.bench.load;

import dev.duro.client.ClusterView;
import dev.duro.core.Bytes;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Keys of each partition (4-byte big-endian integers, as the paper's workloads use 4-byte keys), found by asking
 * the cluster's partitioner, and a uniform or zipfian choice among them.
 */
final class KeySpace {
    private final Bytes[][] keysByPartition;
    private final double[] zipfCumulative;

    KeySpace(ClusterView view, int keysPerPartition, double zipfSkew) {
        int partitions = view.partitionCount();
        keysByPartition = new Bytes[partitions][keysPerPartition];
        int[] filled = new int[partitions];
        int remaining = partitions;
        for (int candidate = 0; remaining > 0; candidate++) {
            Bytes key = Bytes.wrap(new byte[] {
                (byte) (candidate >>> 24), (byte) (candidate >>> 16), (byte) (candidate >>> 8), (byte) candidate
            });
            int partition = view.partitionOf(key);
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

    int partitions() {
        return keysByPartition.length;
    }

    Bytes pick(int partition, SplittableRandom random) {
        Bytes[] keys = keysByPartition[partition];
        if (zipfCumulative == null) {
            return keys[random.nextInt(keys.length)];
        }
        int index = Arrays.binarySearch(zipfCumulative, random.nextDouble());
        return keys[Math.min(keys.length - 1, index >= 0 ? index : -index - 1)];
    }
}
