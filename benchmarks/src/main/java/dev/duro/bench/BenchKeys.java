package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Keys, values and transactions of the microbenchmarks: four-byte big-endian integers. */
final class BenchKeys {
    /** Keys read and keys written by a workload-A transaction. */
    static final int WORKLOAD_A_KEYS = 4;

    private BenchKeys() {}

    static Bytes fourBytes(int value) {
        return Bytes.wrap(
                new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }

    /** A workload-A transaction's reads and writes, keys drawn uniformly from {@code [0, keys)}. */
    record ReadsAndWrites(List<Bytes> reads, List<Write> writes) {
        static ReadsAndWrites workloadA(Random random, int keys) {
            List<Bytes> reads = new ArrayList<>(WORKLOAD_A_KEYS);
            List<Write> writes = new ArrayList<>(WORKLOAD_A_KEYS);
            for (int k = 0; k < WORKLOAD_A_KEYS; k++) {
                reads.add(fourBytes(random.nextInt(keys)));
                writes.add(Write.put(fourBytes(random.nextInt(keys)), fourBytes(random.nextInt())));
            }
            return new ReadsAndWrites(List.copyOf(reads), List.copyOf(writes));
        }
    }
}
