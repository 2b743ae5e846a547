package dev.duro.bench;

import dev.duro.core.TxId;
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
 * <p>Setup writes every one of the {@code keys} keys once, so the store holds all of them before the first
 * operation, and draws the key numbers of 2^20 transactions, ten times the snapshots an engine retains, reused
 * round-robin: a key is rewritten about every {@code keys / 4} transactions on average, as uniform draws would,
 * not on a short fixed period. An operation makes its request as the log decoder would, keys and values objects of
 * their own with a fresh transaction id and the current SC ({@code requestOnly} measures that alone), and
 * delivers it. Because local transactions
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
    /**
     * Pre-generated transactions, reused round-robin; a power of two, and ten times the snapshots an engine
     * retains by default, so the round-robin's period is not what decides how many versions a chain holds.
     */
    private static final int TRANSACTIONS = 1 << 20;

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
    /**
     * The key numbers of the pre-generated transactions: transaction {@code t} reads the {@link
     * BenchKeys#WORKLOAD_A_KEYS} keys from {@code keyNumbers[t * WORKLOAD_A_KEY_NUMBERS]} and writes the ones after them.
     */
    private int[] keyNumbers;

    private long sequence;

    @Setup
    public void setUp() {
        CertifierSettings certification =
                representation.equals("bloom") ? CertifierSettings.bloom(window) : CertifierSettings.exact(window);
        EngineSettings settings = EngineSettings.DEFAULT.withCertification(certification);
        engine = new PartitionEngine(0, settings);
        engine.setDesignatedVoter(true);
        other = new PartitionEngine(1, settings);
        other.setDesignatedVoter(true);
        BenchKeys.load(engine, keys);
        BenchKeys.load(other, keys);
        Random random = new Random(42);
        keyNumbers = new int[TRANSACTIONS * BenchKeys.WORKLOAD_A_KEY_NUMBERS];
        for (int i = 0; i < keyNumbers.length; i++) {
            keyNumbers[i] = random.nextInt(keys);
        }
    }

    /**
     * The request of pre-generated transaction {@code slot} with id {@code tid}: its keys and values are objects of
     * their own, made now, as the log decoder makes them for each delivery.
     */
    private CommitRequest request(TxId tid, List<Integer> participants, long snapshot, int slot) {
        BenchKeys.ReadsAndWrites transaction = BenchKeys.ReadsAndWrites.workloadA(
                keyNumbers, slot * BenchKeys.WORKLOAD_A_KEY_NUMBERS, (int) tid.sequence());
        return new CommitRequest(tid, participants, snapshot, transaction.reads(), transaction.writes());
    }

    /** One operation is one local transaction. */
    @Benchmark
    public List<Effect> local() {
        int slot = (int) (sequence & (TRANSACTIONS - 1));
        return engine.deliver(request(new TxId(1, ++sequence), PARTICIPANTS, engine.snapshotCounter(), slot));
    }

    /**
     * Only what {@link #local} spends making its request, which the engine's cost is the rest of: the log decoder's
     * share in a node.
     */
    @Benchmark
    public CommitRequest requestOnly() {
        int slot = (int) (sequence & (TRANSACTIONS - 1));
        return request(new TxId(1, ++sequence), PARTICIPANTS, engine.snapshotCounter(), slot);
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
        List<Effect> here = engine.deliver(request(tid, BOTH, engine.snapshotCounter(), slot));
        List<Effect> there =
                other.deliver(request(tid, BOTH, other.snapshotCounter(), (slot + 1) & (TRANSACTIONS - 1)));
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
