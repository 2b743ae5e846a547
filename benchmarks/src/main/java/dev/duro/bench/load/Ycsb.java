package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * YCSB's core read/update mixes over single keys: A (50% update), B (5%), C (read only). A read is a read-only
 * transaction of one key; an update overwrites one key with a fresh 1 KiB value (YCSB's default record, 10
 * fields of 100 bytes) without reading it first, as YCSB's update does: a local transaction with no reads.
 * Duro still certifies the key it writes (ws ⊆ rs), so concurrent updates of a hot key abort one another. The
 * partition is uniform and the key within it zipfian (0.99 unless {@code --zipf} says otherwise), so each
 * partition has its own hot keys. No transaction spans partitions: {@code --global} does not apply.
 */
final class Ycsb {
    static final int VALUE_BYTES = 1024;

    private Ycsb() {}

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
