package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** A key space over a fake partitioner, and an in-memory store that runs plans one after another. */
final class Fixtures {
    static final int PARTITIONS = 4;
    static final int KEYS_PER_PARTITION = 1_000;
    static final int PLANS = 10_000;
    static final long SEED = 42;

    private Fixtures() {}

    static int partitionOf(Bytes key) {
        return Math.floorMod(key.hashCode() * 0x9E3779B9, PARTITIONS);
    }

    static LoadOptions options(String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--partitions",
                String.valueOf(PARTITIONS),
                "--keys-per-partition",
                String.valueOf(KEYS_PER_PARTITION)));
        all.addAll(List.of(args));
        return LoadOptions.parse(all.toArray(String[]::new));
    }

    static KeySpace keys(LoadOptions options) {
        return new KeySpace(PARTITIONS, Fixtures::partitionOf, options.keysPerPartition(), options.zipfSkew());
    }

    /** {@link #PLANS} plans of one client of the workload the options name. */
    static List<TxPlan> plans(LoadOptions options) {
        TxSource source = options.workload().source(keys(options), options, new SplittableRandom(SEED));
        List<TxPlan> plans = new ArrayList<>(PLANS);
        for (int i = 0; i < PLANS; i++) {
            plans.add(source.next());
        }
        return plans;
    }

    static long partitionsTouched(TxPlan plan) {
        return keysOf(plan).stream().mapToInt(Fixtures::partitionOf).distinct().count();
    }

    static List<Bytes> keysOf(TxPlan plan) {
        List<Bytes> keys = new ArrayList<>(plan.reads());
        if (plan.scan() != null) {
            keys.add(plan.scan().from());
        }
        if (plan.kind() != TxKind.READ_ONLY) {
            keys.addAll(plan.writes(readsFrom(new HashMap<>(), plan)).keySet());
        }
        return keys;
    }

    static double percent(List<TxPlan> plans, TxKind kind) {
        return 100.0 * plans.stream().filter(plan -> plan.kind() == kind).count() / plans.size();
    }

    static List<Bytes> readsFrom(Map<Bytes, Bytes> store, TxPlan plan) {
        List<Bytes> values = new ArrayList<>();
        for (Bytes key : plan.reads()) {
            values.add(store.get(key));
        }
        return values;
    }

    /** Runs {@code plan} against {@code store} serially: reads, then the writes computed from them. */
    static Map<Bytes, Bytes> apply(Map<Bytes, Bytes> store, TxPlan plan) {
        Map<Bytes, Bytes> writes = plan.kind() == TxKind.READ_ONLY ? Map.of() : plan.writes(readsFrom(store, plan));
        writes.forEach((key, value) -> {
            if (value == null) {
                store.remove(key);
            } else {
                store.put(key, value);
            }
        });
        return writes;
    }
}
