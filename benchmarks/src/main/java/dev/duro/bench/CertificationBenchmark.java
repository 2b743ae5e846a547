package dev.duro.bench;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Write;
import dev.duro.core.certify.Certifier;
import dev.duro.core.certify.CertifierSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The certification test alone (S-DUR Algorithm 4, lines 38–46) for a global transaction whose snapshot is as
 * old as the window allows, so it is checked against all K retained transactions: the worst case, and the case
 * where the two readset representations differ most.
 *
 * <p>The window is filled in setup with K transactions that each read {@code readSetKeys} keys and write a
 * quarter as many (at least one), all drawn from 1,000,000 four-byte keys. Each operation certifies one
 * pre-generated transaction of the same shape whose keys come from a disjoint range, so it passes unless a bloom
 * filter reports a false positive, and no early conflict cuts the work short. Certification changes no state,
 * so every operation sees the same window.
 *
 * <ul>
 *   <li>{@code exact}: one index lookup per read and written key (the written keys twice: against writes and,
 *       for the stronger test, against reads). The cost does not depend on K.
 *   <li>{@code bloom}: every retained transaction is recorded with a bloom summary of its readset, and the
 *       stronger test probes each written key against every summary numbered after the snapshot: linear in K.
 * </ul>
 *
 * <p>Run: {@code ./duro bench micro Certification}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CertificationBenchmark {
    private static final int KEYS = 1_000_000;
    /** Pre-generated transactions to certify, reused round-robin; a power of two. */
    private static final int PROBES = 1 << 10;

    /** How the certification window records readsets: the exact per-key index, or bloom summaries. */
    @Param({"exact", "bloom"})
    public String representation;

    /** K: certified transactions retained to certify against ({@code certification.window-transactions}). */
    @Param({"64", "1024", "16384"})
    public int window;

    /** Keys each transaction reads; it writes a quarter as many, at least one. */
    @Param({"1", "4", "16", "64"})
    public int readSetKeys;

    private Certifier certifier;
    private List<Bytes>[] probeReads;
    private List<Write>[] probeWrites;
    private long snapshot;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        CertifierSettings settings =
                representation.equals("bloom") ? CertifierSettings.bloom(window) : CertifierSettings.exact(window);
        certifier = new Certifier(0, settings);
        SplittableRandom random = new SplittableRandom(42);
        for (int t = 0; t < window; t++) {
            certifier.record(readSet(random, 0), writeSet(random, 0));
        }
        snapshot = certifier.oldestCertifiableSnapshot();
        probeReads = new List[PROBES];
        probeWrites = new List[PROBES];
        for (int t = 0; t < PROBES; t++) {
            probeReads[t] = readSet(random, KEYS);
            probeWrites[t] = writeSet(random, KEYS);
        }
    }

    private List<Bytes> readSet(SplittableRandom random, int base) {
        List<Bytes> reads = new ArrayList<>(readSetKeys);
        for (int k = 0; k < readSetKeys; k++) {
            reads.add(BenchKeys.fourBytes(base + random.nextInt(KEYS)));
        }
        return List.copyOf(reads);
    }

    private List<Write> writeSet(SplittableRandom random, int base) {
        int keys = Math.max(1, readSetKeys / 4);
        List<Write> writes = new ArrayList<>(keys);
        for (int k = 0; k < keys; k++) {
            writes.add(Write.put(BenchKeys.fourBytes(base + random.nextInt(KEYS)), BenchKeys.fourBytes(k)));
        }
        return List.copyOf(writes);
    }

    /** One operation certifies one global transaction against the whole window. */
    @Benchmark
    public @Nullable AbortReason certifyGlobal() {
        int slot = next++ & (PROBES - 1);
        return certifier.certify(snapshot, probeReads[slot], probeWrites[slot], true);
    }
}
