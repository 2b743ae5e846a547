package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.node.LogEntryCodec;
import dev.duro.core.node.PeerMessageCodec;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ReadReply;
import dev.duro.core.wire.WireCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The rest of the codec on a transaction's path: the server's read reply (a 4-byte value) and commit reply (the
 * outcome of a transaction committed at two partitions) on the wire, and one Raft log entry holding a group
 * commit of 16 workload-A commit requests (4 reads, 4 writes of 4-byte keys and values). One log-entry operation
 * encodes or decodes the whole entry: divide by 16 for a transaction's share.
 *
 * <p>Run: {@code ./duro bench micro ReplyAndLogCodec}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReplyAndLogCodecBenchmark {
    /** Commit requests in the benchmarked log entry. */
    public static final int ENTRY_COMMANDS = 16;

    private final WireCodec wire = PeerMessageCodec.wireCodec(Limits.DEFAULT);
    private final LogEntryCodec log = new LogEntryCodec(Limits.DEFAULT);
    private ReadReply readReply;
    private OutcomeReply outcomeReply;
    private List<Command> entry;
    private byte[] readReplyFrame;
    private byte[] outcomeReplyFrame;
    private byte[] entryBytes;

    @Setup
    public void setUp() {
        readReply = new ReadReply(17, 0, 123_456, BenchKeys.fourBytes(99), 123_001);
        TxId tid = new TxId(99, 1);
        outcomeReply = new OutcomeReply(18, Outcome.committed(tid, List.of(0, 1), List.of(123_457L, 98_765L)));
        entry = new ArrayList<>(ENTRY_COMMANDS);
        for (int t = 0; t < ENTRY_COMMANDS; t++) {
            List<Bytes> reads = new ArrayList<>();
            List<Write> writes = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                reads.add(BenchKeys.fourBytes(t * 100 + k));
                writes.add(Write.put(BenchKeys.fourBytes(t * 100 + 50 + k), BenchKeys.fourBytes(k)));
            }
            entry.add(new CommitRequest(new TxId(99, t + 1), List.of(0), 123_456, reads, writes));
        }
        readReplyFrame = wire.encode(readReply);
        outcomeReplyFrame = wire.encode(outcomeReply);
        entryBytes = log.encode(entry);
    }

    @Benchmark
    public byte[] encodeReadReply() {
        return wire.encode(readReply);
    }

    @Benchmark
    public Message decodeReadReply() {
        return wire.decode(readReplyFrame);
    }

    @Benchmark
    public byte[] encodeOutcomeReply() {
        return wire.encode(outcomeReply);
    }

    @Benchmark
    public Message decodeOutcomeReply() {
        return wire.decode(outcomeReplyFrame);
    }

    @Benchmark
    public byte[] encodeLogEntry() {
        return log.encode(entry);
    }

    @Benchmark
    public List<Command> decodeLogEntry() {
        return log.decode(entryBytes);
    }
}
