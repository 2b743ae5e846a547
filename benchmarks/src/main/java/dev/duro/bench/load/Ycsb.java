package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * YCSB's core read/update mixes over single keys: A (50% update), B (5%), C (read only); and E, short range
 * scans with inserts ({@link #scans}). A read is a read-only
 * transaction of one key; an update overwrites one key with a fresh 1 KiB value (YCSB's default record, 10
 * fields of 100 bytes) without reading it first, as YCSB's update does: a local transaction with no reads.
 * Duro still certifies the key it writes (ws ⊆ rs), so concurrent updates of a hot key abort one another. The
 * partition is uniform and the key within it zipfian (0.99 unless {@code --zipf} says otherwise), so each
 * partition has its own hot keys. No transaction spans partitions: {@code --global} does not apply.
 */
final class Ycsb {
    static final int VALUE_BYTES = 1024;

    private Ycsb() {}

    /** YCSB E's most keys per scan; each scan's length is uniform in {@code [1, SCAN_KEYS_MAX]}. */
    static final int SCAN_KEYS_MAX = 100;

    /**
     * YCSB E: {@code insertPercent}% inserts of a new key (1 KiB value, a local blind write) and the rest short
     * scans, each from a start key chosen like a read's (uniform partition, zipfian key) with no end and a length
     * uniform in {@code [1, 100]}, as a read-only transaction. A new key is a key of the key space followed by 4
     * random bytes, so it sorts next to (and, with the range partitioner, in the partition of) that key, and scans
     * starting near it meet it.
     */
    static Workload.Generator scans(int insertPercent) {
        if (insertPercent < 0 || insertPercent > 100) {
            throw new IllegalArgumentException("insert percentage out of [0, 100]: " + insertPercent);
        }
        return (keys, options, random) -> () -> {
            Bytes start = keys.pick(random.nextInt(keys.partitions()), random);
            if (random.nextInt(100) >= insertPercent) {
                return TxPlan.scanning(start, 1 + random.nextInt(SCAN_KEYS_MAX));
            }
            byte[] key = Arrays.copyOf(start.toByteArray(), start.size() + 4);
            for (int i = start.size(); i < key.length; i++) {
                key[i] = (byte) random.nextInt(256);
            }
            byte[] value = new byte[VALUE_BYTES];
            random.nextBytes(value);
            return TxPlan.of(TxKind.LOCAL, List.of(), Map.of(Bytes.wrap(key), Bytes.wrap(value)));
        };
    }

    /** The mix with {@code updatePercent}% updates and the rest reads. */
    static Workload.Generator mix(int updatePercent) {
        if (updatePercent < 0 || updatePercent > 100) {
            throw new IllegalArgumentException("update percentage out of [0, 100]: " + updatePercent);
        }
        return (keys, options, random) -> source(keys, updatePercent, random);
    }

    private static TxSource source(KeySpace keys, int updatePercent, SplittableRandom random) {
        return () -> {
            boolean update = random.nextInt(100) < updatePercent;
            Bytes key = keys.pick(random.nextInt(keys.partitions()), random);
            if (!update) {
                return TxPlan.of(TxKind.READ_ONLY, List.of(key), Map.of());
            }
            byte[] value = new byte[VALUE_BYTES];
            random.nextBytes(value);
            return TxPlan.of(TxKind.LOCAL, List.of(), Map.of(key, Bytes.wrap(value)));
        };
    }
}
