package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.node.PeerMessageCodec;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.WireCodec;
import java.util.ArrayList;
import java.util.List;
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
 * Encoding and decoding a client's commit of a workload-A transaction (4 reads, 4 writes of 4-byte keys) or of
 * workload B (2 reads, 2 writes of 1 KiB values), local or spread over two partitions.
 *
 * <p>Run: {@code ./duro bench micro WireCodec}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WireCodecBenchmark {
    @Param({"A", "B"})
    public String workload;

    @Param({"1", "2"})
    public int partitions;

    private final WireCodec codec = PeerMessageCodec.wireCodec(Limits.DEFAULT);
    private CommitTransaction commit;
    private byte[] frame;

    @Setup
    public void setUp() {
        int keys = workload.equals("A") ? 4 : 2;
        int valueBytes = workload.equals("A") ? 4 : 1024;
        List<CommitTransaction.Participant> participants = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            List<Bytes> reads = new ArrayList<>();
            List<Write> writes = new ArrayList<>();
            for (int k = 0; k < keys / partitions; k++) {
                reads.add(BenchKeys.fourBytes(p * 1000 + k));
                writes.add(Write.put(BenchKeys.fourBytes(p * 1000 + 500 + k), Bytes.wrap(new byte[valueBytes])));
            }
            participants.add(new CommitTransaction.Participant(p, 12_345, reads, writes));
        }
        commit = new CommitTransaction(7, new TxId(99, 1), participants);
        frame = codec.encode(commit);
    }

    @Benchmark
    public byte[] encode() {
        return codec.encode(commit);
    }

    @Benchmark
    public Message decode() {
        return codec.decode(frame);
    }
}
