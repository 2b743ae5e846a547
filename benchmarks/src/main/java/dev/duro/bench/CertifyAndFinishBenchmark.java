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

    /** The client id of the transactions that populate the store; the measured ones are client 1's. */
    private static final long POPULATING_CLIENT = 2;

    /** Keys a workload-A transaction reads and writes. */
    private static final int KEYS_PER_TRANSACTION = 2 * BenchKeys.WORKLOAD_A_KEYS;

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
     * BenchKeys#WORKLOAD_A_KEYS} keys from {@code keyNumbers[t * KEYS_PER_TRANSACTION]} and writes the ones after them.
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
        populate(engine);
        populate(other);
        Random random = new Random(42);
        keyNumbers = new int[TRANSACTIONS * KEYS_PER_TRANSACTION];
        for (int i = 0; i < keyNumbers.length; i++) {
            keyNumbers[i] = random.nextInt(keys);
        }
    }

    /**
     * The request of pre-generated transaction {@code slot} with id {@code tid}: its keys and values are objects of
     * their own, made now, as the log decoder makes them for each delivery.
     */
    private CommitRequest request(TxId tid, List<Integer> participants, long snapshot, int slot) {
        int at = slot * KEYS_PER_TRANSACTION;
        int[] numbers = keyNumbers;
        List<Bytes> reads = List.of(
                BenchKeys.fourBytes(numbers[at]),
                BenchKeys.fourBytes(numbers[at + 1]),
                BenchKeys.fourBytes(numbers[at + 2]),
                BenchKeys.fourBytes(numbers[at + 3]));
        int value = (int) tid.sequence();
        List<Write> writes = List.of(
                Write.put(BenchKeys.fourBytes(numbers[at + 4]), BenchKeys.fourBytes(value)),
                Write.put(BenchKeys.fourBytes(numbers[at + 5]), BenchKeys.fourBytes(value)),
                Write.put(BenchKeys.fourBytes(numbers[at + 6]), BenchKeys.fourBytes(value)),
                Write.put(BenchKeys.fourBytes(numbers[at + 7]), BenchKeys.fourBytes(value)));
        return new CommitRequest(tid, participants, snapshot, reads, writes);
    }

    /** Writes every key once, four to a transaction, so that the store holds {@code keys} keys. */
    private void populate(PartitionEngine target) {
        Bytes value = BenchKeys.fourBytes(0);
        for (int first = 0; first < keys; first += BenchKeys.WORKLOAD_A_KEYS) {
            List<Write> writes = new ArrayList<>(BenchKeys.WORKLOAD_A_KEYS);
            for (int key = first; key < Math.min(keys, first + BenchKeys.WORKLOAD_A_KEYS); key++) {
                writes.add(Write.put(BenchKeys.fourBytes(key), value));
            }
            target.deliver(new CommitRequest(
                    new TxId(POPULATING_CLIENT, first + 1L),
                    List.of(target.partition()),
                    target.snapshotCounter(),
                    List.of(),
                    writes));
        }
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
