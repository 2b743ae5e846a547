package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The S-DUR paper's workloads (Table I): reads and writes per transaction, key and value sizes. Writes go to
 * keys the transaction read (the paper's {@code ws ⊆ rs}).
 */
public enum Workload {
    A(4, 4, 4),
    B(2, 2, 1024),
    C(8, 0, 4),
    D(4, 0, 1024);

    private final int reads;
    private final int writes;
    private final int valueBytes;

    Workload(int reads, int writes, int valueBytes) {
        this.reads = reads;
        this.writes = writes;
        this.valueBytes = valueBytes;
    }

    public int reads() {
        return reads;
    }

    public int writes() {
        return writes;
    }

    public int valueBytes() {
        return valueBytes;
    }

    public boolean readOnly() {
        return writes == 0;
    }

    /**
     * One client's transactions: {@link #reads()} distinct keys of one partition, or, for the given percentage,
     * spread round robin over {@code --global-partitions} partitions; the first {@link #writes()} keys read get
     * fresh random values. With fewer partitions than a global transaction needs, every transaction is local.
     */
    public TxSource source(KeySpace keys, LoadOptions options, SplittableRandom random) {
        byte[] value = new byte[valueBytes];
        return () -> {
            boolean global =
                    keys.partitions() >= options.globalPartitions() && random.nextInt(100) < options.globalPercent();
            int[] partitions = global
                    ? distinctPartitions(keys.partitions(), options.globalPartitions(), random)
                    : new int[] {random.nextInt(keys.partitions())};
            List<Bytes> chosen = distinctKeys(keys, partitions, reads, random);
            if (readOnly()) {
                return TxPlan.of(TxKind.READ_ONLY, chosen, Map.of());
            }
            Map<Bytes, Bytes> written = new LinkedHashMap<>();
            for (int i = 0; i < writes && i < chosen.size(); i++) {
                random.nextBytes(value);
                written.put(chosen.get(i), Bytes.copyOf(value));
            }
            return TxPlan.of(global ? TxKind.GLOBAL : TxKind.LOCAL, chosen, written);
        };
    }

    /** {@code count} distinct keys, taken round robin from {@code partitions}. */
    static List<Bytes> distinctKeys(KeySpace keys, int[] partitions, int count, SplittableRandom random) {
        Set<Bytes> chosen = new LinkedHashSet<>();
        for (int i = 0; chosen.size() < count && i < count * 20; i++) {
            chosen.add(keys.pick(partitions[chosen.size() % partitions.length], random));
        }
        return new ArrayList<>(chosen);
    }

    /** {@code count} distinct partitions out of {@code partitions}, in random order. */
    static int[] distinctPartitions(int partitions, int count, SplittableRandom random) {
        int[] all = new int[partitions];
        for (int i = 0; i < partitions; i++) {
            all[i] = i;
        }
        for (int i = 0; i < count; i++) {
            int j = i + random.nextInt(partitions - i);
            int swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        return Arrays.copyOf(all, count);
    }
}
