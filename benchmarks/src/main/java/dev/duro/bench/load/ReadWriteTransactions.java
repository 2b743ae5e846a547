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
 * Transactions that read {@code reads} distinct keys and overwrite the first {@code writes} of them with fresh
 * random values of {@code valueBytes} (the papers' {@code ws ⊆ rs}): S-DUR's Table I (workloads A–D) and
 * P-DUR's micro-benchmark Table I (types I–III) are both of this shape.
 *
 * @param reads keys read per transaction
 * @param writes keys written per transaction, 0 for a read-only workload
 * @param valueBytes size of every value written
 */
record ReadWriteTransactions(int reads, int writes, int valueBytes) implements Workload.Generator {
    ReadWriteTransactions {
        if (reads < 1 || writes < 0 || writes > reads || valueBytes < 0) {
            throw new IllegalArgumentException("bad shape: " + reads + "r/" + writes + "w/" + valueBytes + "B");
        }
    }

    boolean readOnly() {
        return writes == 0;
    }

    /**
     * One client's transactions: {@link #reads()} distinct keys of one partition, or, for the given percentage,
     * spread round robin over {@code --global-partitions} partitions; the first {@link #writes()} keys read get
     * fresh random values. With fewer partitions than a global transaction needs, every transaction is local.
     */
    @Override
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

    /**
     * {@code count} distinct keys, taken round robin from {@code partitions}; fewer when the partitions hold too
     * few distinct keys (the search is bounded).
     */
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

    /** A partition other than {@code home}, uniformly; {@code home} itself when it is the only one. */
    static int otherPartition(int partitions, int home, SplittableRandom random) {
        if (partitions < 2) {
            return home;
        }
        int other = random.nextInt(partitions - 1);
        return other >= home ? other + 1 : other;
    }
}
