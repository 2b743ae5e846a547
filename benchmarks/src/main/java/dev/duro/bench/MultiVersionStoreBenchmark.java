package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.VersionedValue;
import dev.duro.core.store.FrozenStore;
import dev.duro.core.store.MultiVersionStore;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The multiversion store on one thread: a read at the newest snapshot, a read at the oldest snapshot still
 * readable (which walks a key's chain back past the versions installed since), and installing a workload-A
 * writeset (4 keys at one version) followed by the garbage collection that keeps {@code retained} versions
 * readable behind it, as the engine does after every commit; and freezing the store for a snapshot.
 *
 * <p>Run: {@code ./duro bench micro MultiVersionStore}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MultiVersionStoreBenchmark {
    /** Distinct keys in the store. */
    @Param({"100000", "1000000"})
    public int keys;

    /** Versions kept readable behind the newest (the engine's {@code engine.snapshots-retained}). */
    @Param({"10000"})
    public int retained;

    private MultiVersionStore store;
    private Bytes[] keyTable;
    private Bytes value;
    private SplittableRandom random;
    private long version;

    @Setup
    public void setUp() {
        store = new MultiVersionStore();
        keyTable = new Bytes[keys];
        for (int i = 0; i < keys; i++) {
            keyTable[i] = BenchKeys.fourBytes(i);
        }
        value = Bytes.wrap(new byte[] {1, 2, 3, 4});
        random = new SplittableRandom(42);
        for (int i = 0; i < keys; i += 4) {
            install();
        }
    }

    /** One operation installs four writes at the next version and collects what falls behind the horizon. */
    @Benchmark
    public long install() {
        version++;
        for (int i = 0; i < 4; i++) {
            store.put(keyTable[random.nextInt(keys)], value, version);
        }
        store.collectGarbage(version - retained);
        return store.versionCount();
    }

    /** One operation reads one random key at the newest snapshot. */
    @Benchmark
    public VersionedValue readAtNewest() {
        return store.get(keyTable[random.nextInt(keys)], version);
    }

    /** One operation reads one random key at the oldest readable snapshot, {@code retained} versions back. */
    @Benchmark
    public VersionedValue readAtOldest() {
        return store.get(keyTable[random.nextInt(keys)], store.horizon());
    }

    /**
     * Freezing the whole store for a snapshot and releasing the image: the part of a snapshot that holds the
     * engine's lock (docs/replication.md, "Snapshots do not stop applying").
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int freezeAndRelease() {
        FrozenStore image = store.freeze();
        image.release();
        return image.keyCount();
    }
}
