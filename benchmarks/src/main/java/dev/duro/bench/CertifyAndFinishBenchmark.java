package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.PartitionEngine;
import dev.duro.core.engine.Vote;
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
 * Deliver-to-finish throughput of partition engines on one thread. {@code local}: each operation delivers one
 * local workload-A transaction (4 reads and 4 writes of 4-byte keys drawn uniformly from
 * {@code keys}, by default 1,000,000, 4-byte values)
 * whose snapshot is the engine's current SC, so it commits, installs its writes and advances SC.
 *
 * <p>Readsets and writesets are generated in setup; an operation only wraps one in a {@link CommitRequest} with a
 * fresh transaction id and the current SC, as the log decoder would, and delivers it. Because local transactions
 * finish as soon as they are certified, SC equals PSC at every delivery: nothing was certified after the
 * snapshot, so this measures recording in the certification window and finishing (store install, garbage
 * collection, outcome retention) rather than conflict lookups.
 *
 * <p>{@code global}: each operation is one transaction over two partitions, with the same shape (4 reads, 4
 * writes) at each. It is delivered at both engines, which are designated voters and so emit their votes; each
 * vote is handed to the other engine's {@code receiveVote}, upon which both finish. One operation therefore does
 * the work of two participants plus the vote exchange, which a cluster spreads over two partitions' replicas.
 *
 * <p>Run: {@code ./duro bench micro CertifyAndFinish}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CertifyAndFinishBenchmark {
    /** Pre-generated transactions, reused round-robin; a power of two. */
    private static final int TRANSACTIONS = 1 << 16;

    private static final List<Integer> PARTICIPANTS = List.of(0);
    private static final List<Integer> BOTH = List.of(0, 1);

    /** How the certification window records readsets: the exact per-key index, or bloom summaries. */
    @Param({"exact", "bloom"})
    public String representation;

    /** The key space the transactions draw from: the store grows to about this many keys. */
    @Param({"1000000"})
    public int keys;

    /** K: certified transactions retained to certify against. */
    @Param({"10000"})
    public int window;

    private PartitionEngine engine;
    private PartitionEngine other;
    private List<Bytes>[] readSets;
    private List<Write>[] writeSets;
    private long sequence;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        CertifierSettings certification =
                representation.equals("bloom") ? CertifierSettings.bloom(window) : CertifierSettings.exact(window);
        EngineSettings settings = EngineSettings.DEFAULT.withCertification(certification);
        engine = new PartitionEngine(0, settings);
        engine.setDesignatedVoter(true);
        other = new PartitionEngine(1, settings);
        other.setDesignatedVoter(true);
        Random random = new Random(42);
        readSets = new List[TRANSACTIONS];
        writeSets = new List[TRANSACTIONS];
        for (int t = 0; t < TRANSACTIONS; t++) {
            BenchKeys.ReadsAndWrites transaction = BenchKeys.ReadsAndWrites.workloadA(random, keys);
            readSets[t] = transaction.reads();
            writeSets[t] = transaction.writes();
        }
    }

    /** One operation is one local transaction. */
    @Benchmark
    public List<Effect> local() {
        int slot = (int) (sequence & (TRANSACTIONS - 1));
        CommitRequest request = new CommitRequest(
                new TxId(1, ++sequence), PARTICIPANTS, engine.snapshotCounter(), readSets[slot], writeSets[slot]);
        return engine.deliver(request);
    }

    /**
     * One operation is one global transaction, delivered at both partitions and finished by their votes; then each
     * partition's log delivers its own decision and the other's copy of it (docs/window-safety.md), as the logs of
     * a real cluster do.
     */
    @Benchmark
    public int global() {
        int slot = (int) (sequence & (TRANSACTIONS - 1));
        TxId tid = new TxId(1, ++sequence);
        List<Effect> here =
                engine.deliver(new CommitRequest(tid, BOTH, engine.snapshotCounter(), readSets[slot], writeSets[slot]));
        int otherSlot = (slot + 1) & (TRANSACTIONS - 1);
        List<Effect> there = other.deliver(
                new CommitRequest(tid, BOTH, other.snapshotCounter(), readSets[otherSlot], writeSets[otherSlot]));
        int effects = logDecisions(other.receiveVote(vote(here)));
        return effects + logDecisions(engine.receiveVote(vote(there)));
    }

    /** Delivers every decision the effects propose into the log they name, and the copies those propose in turn. */
    private int logDecisions(List<Effect> effects) {
        int count = effects.size();
        for (int i = 0, n = effects.size(); i < n; i++) {
            if (effects.get(i) instanceof Effect.ProposeDecision proposal) {
                PartitionEngine target = proposal.target() == 0 ? engine : other;
                count += logDecisions(target.deliver(proposal.decision()));
            }
        }
        return count;
    }

    private static Vote vote(List<Effect> effects) {
        for (int i = 0, n = effects.size(); i < n; i++) {
            if (effects.get(i) instanceof Effect.SendVote send) {
                return send.vote();
            }
        }
        throw new IllegalStateException("a designated voter sends its vote on delivery: " + effects);
    }
}
