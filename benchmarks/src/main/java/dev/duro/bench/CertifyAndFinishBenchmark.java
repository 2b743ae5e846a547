package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.PartitionEngine;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 * Certify-and-finish throughput of one partition engine on one thread: each operation delivers one local
 * workload-A transaction (4 reads and 4 writes of 4-byte keys drawn uniformly from 1,000,000, 4-byte values)
 * whose snapshot is the engine's current SC, so it commits, installs its writes and advances SC.
 *
 * <p>Readsets and writesets are generated in setup; an operation only wraps one in a {@link CommitRequest} with a
 * fresh transaction id and the current SC, as the log decoder would, and delivers it. Because local transactions
 * finish as soon as they are certified, SC equals PSC at every delivery: nothing was certified after the
 * snapshot, so this measures recording in the certification window and finishing (store install, garbage
 * collection, outcome retention) rather than conflict lookups.
 *
 * <p>Run: {@code java -jar benchmarks/target/duro-benchmarks.jar CertifyAndFinish -f 1 -wi 3 -w 2s -i 5 -r 2s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CertifyAndFinishBenchmark {
    private static final int KEYS = 1_000_000;
    private static final int KEYS_PER_SET = 4;
    /** Pre-generated transactions, reused round-robin; a power of two. */
    private static final int TRANSACTIONS = 1 << 16;

    private static final List<Integer> PARTICIPANTS = List.of(0);

    /** How the certification window records readsets: the exact per-key index, or bloom summaries. */
    @Param({"exact", "bloom"})
    public String representation;

    /** K: certified transactions retained to certify against. */
    @Param({"10000"})
    public int window;

    private PartitionEngine engine;
    private List<Bytes>[] readSets;
    private List<Write>[] writeSets;
    private long sequence;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        CertifierSettings certification =
                representation.equals("bloom") ? CertifierSettings.bloom(window) : CertifierSettings.exact(window);
        engine = new PartitionEngine(0, EngineSettings.DEFAULT.withCertification(certification));
        Random random = new Random(42);
        readSets = new List[TRANSACTIONS];
        writeSets = new List[TRANSACTIONS];
        for (int t = 0; t < TRANSACTIONS; t++) {
            List<Bytes> reads = new ArrayList<>(KEYS_PER_SET);
            List<Write> writes = new ArrayList<>(KEYS_PER_SET);
            for (int k = 0; k < KEYS_PER_SET; k++) {
                reads.add(fourBytes(random.nextInt(KEYS)));
                writes.add(Write.put(fourBytes(random.nextInt(KEYS)), fourBytes(random.nextInt())));
            }
            readSets[t] = List.copyOf(reads);
            writeSets[t] = List.copyOf(writes);
        }
    }

    private static Bytes fourBytes(int value) {
        return Bytes.wrap(ByteBuffer.allocate(4).putInt(value).array());
    }

    /** One operation is one transaction. */
    @Benchmark
    public List<Effect> certifyAndFinish() {
        int slot = (int) (sequence & (TRANSACTIONS - 1));
        CommitRequest request = new CommitRequest(
                new TxId(1, ++sequence), PARTICIPANTS, engine.snapshotCounter(), readSets[slot], writeSets[slot]);
        return engine.deliver(request);
    }
}
