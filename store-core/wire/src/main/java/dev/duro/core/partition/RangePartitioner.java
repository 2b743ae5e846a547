package dev.duro.core.partition;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Splits the key space into contiguous ranges at given split points, in unsigned byte order ({@link Bytes}'s
 * order). With split points {@code s0 < s1 < … < s(n-2)} there are {@code n} partitions: partition 0 holds the
 * keys below {@code s0}, partition {@code i} holds {@code [s(i-1), s(i))}, and the last holds every key from
 * {@code s(n-2)} up. No split points means one partition holding everything.
 *
 * <p>Range partitioning keeps neighbouring keys together (scans, related rows under one prefix) at the price of
 * hot spots under skewed keys; {@link HashPartitioner} is the opposite trade.
 */
public final class RangePartitioner implements Partitioner {
    private final List<Bytes> splitPoints;

    /**
     * @param splitPoints strictly ascending, non-empty keys; at most {@link Limits#PARTITIONS_MAX} - 1 of them
     * @throws IllegalArgumentException naming the offending split point when they are not
     */
    public RangePartitioner(List<Bytes> splitPoints) {
        if (splitPoints.size() > Limits.PARTITIONS_MAX - 1) {
            throw new IllegalArgumentException("range partitioner allows at most " + (Limits.PARTITIONS_MAX - 1)
                    + " split points (" + Limits.PARTITIONS_MAX + " partitions), was " + splitPoints.size());
        }
        List<Bytes> checked = new ArrayList<>(splitPoints.size());
        for (int i = 0; i < splitPoints.size(); i++) {
            Bytes split = splitPoints.get(i);
            if (split == null) {
                throw new IllegalArgumentException("split point " + i + " is null");
            }
            if (split.size() == 0) {
                // Every key is >= the empty key, so partition i would hold no key at all.
                throw new IllegalArgumentException(
                        "split point " + i + " is the empty key: partition " + i + " would hold no key");
            }
            if (i > 0) {
                int order = split.compareTo(checked.get(i - 1));
                if (order == 0) {
                    throw new IllegalArgumentException("split point " + i + " " + split + " duplicates split point "
                            + (i - 1) + ": partition " + i + " would hold no key");
                }
                if (order < 0) {
                    throw new IllegalArgumentException("split points must ascend: split point " + i + " " + split
                            + " sorts before split point " + (i - 1) + " " + checked.get(i - 1));
                }
            }
            checked.add(split);
        }
        this.splitPoints = Collections.unmodifiableList(checked);
    }

    public List<Bytes> splitPoints() {
        return splitPoints;
    }

    @Override
    public int partitionCount() {
        return splitPoints.size() + 1;
    }

    @Override
    public int partitionOf(Bytes key) {
        int found = Collections.binarySearch(splitPoints, key);
        // A key equal to split point i opens partition i + 1; otherwise the insertion point is the partition.
        return found >= 0 ? found + 1 : -found - 1;
    }

    @Override
    public String describe() {
        return "range over " + partitionCount() + " partitions split at " + splitPoints;
    }

    @Override
    public String toString() {
        return describe();
    }
}
