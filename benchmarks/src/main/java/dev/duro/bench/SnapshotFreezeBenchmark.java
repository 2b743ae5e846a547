package dev.duro.bench;

import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import java.io.OutputStream;
import java.util.List;
import java.util.Random;
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
 * The part of a state-machine snapshot that holds the engine's lock: {@link EngineStateCodec#freeze} of a partition
 * engine in its steady state, then the release of the frozen state (docs/replication.md, "Snapshots do not stop
 * applying"). Setup loads {@code keys} keys, then delivers enough local workload-A transactions (4 reads, 4 writes,
 * uniform keys) for the default windows to fill: K, the retained outcomes and the snapshots the horizon keeps.
 *
 * <p>{@link #write} is the whole snapshot as a replica's writer makes it, to a sink that drops the bytes: the freeze,
 * the store encoded in turns, the window, outcomes and the rest, and the release. It is the CPU a snapshot costs the
 * node beside applying, not the disk.
 *
 * <p>Run: {@code ./duro bench micro SnapshotFreeze}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SnapshotFreezeBenchmark {
    private static final List<Integer> PARTICIPANTS = List.of(0);

    /** Keys in the store. */
    @Param({"1000000"})
    public int keys;

    private PartitionEngine engine;
    private EngineStateCodec codec;

    @Setup
    public void setUp() {
        EngineSettings settings = EngineSettings.DEFAULT;
        engine = new PartitionEngine(0, settings);
        codec = new EngineStateCodec(Limits.DEFAULT);
        BenchKeys.load(engine, keys);
        long sequence = 0;
        Random random = new Random(42);
        long steady = 3
                * Math.max(
                        settings.certification().windowTransactions(),
                        Math.max(settings.outcomesRetained(), settings.snapshotsRetained()));
        for (long t = 0; t < steady; t++) {
            BenchKeys.ReadsAndWrites transaction = BenchKeys.ReadsAndWrites.workloadA(random, keys);
            engine.deliver(new CommitRequest(
                    new TxId(1, ++sequence),
                    PARTICIPANTS,
                    engine.snapshotCounter(),
                    transaction.reads(),
                    transaction.writes()));
        }
    }

    /** The whole freeze of the engine's state, and its release. */
    @Benchmark
    public long engine() {
        EngineStateCodec.Frozen frozen = codec.freeze(engine);
        frozen.release();
        return frozen.snapshotCounter();
    }

    /** The whole snapshot, written to a sink that drops it; returns its size in bytes. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long write() {
        return codec.write(engine, OutputStream.nullOutputStream());
    }
}
