package dev.duro.bench;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.PartitionEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Keys, values and transactions of the microbenchmarks: four-byte big-endian integers. */
final class BenchKeys {
    /** Keys read and keys written by a workload-A transaction ({@link ReadsAndWrites#workloadA} lists four). */
    static final int WORKLOAD_A_KEYS = 4;

    /** Keys a workload-A transaction reads and writes, together. */
    static final int WORKLOAD_A_KEY_NUMBERS = 2 * WORKLOAD_A_KEYS;

    /** Transactions of at most this many writes load a store ({@link #load}). */
    private static final int LOAD_BATCH = 1000;

    /** The client of the transactions {@link #load} delivers; the benchmarks' own are client 1's. */
    private static final long LOADING_CLIENT = 2;

    private BenchKeys() {}

    static Bytes fourBytes(int value) {
        return Bytes.wrap(
                new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }

    /** Writes every key of {@code [0, keys)} once, its number as its value, so that the engine's store holds them all. */
    static void load(PartitionEngine engine, int keys) {
        long sequence = 0;
        for (int first = 0; first < keys; first += LOAD_BATCH) {
            List<Write> writes = new ArrayList<>(LOAD_BATCH);
            for (int k = first; k < Math.min(keys, first + LOAD_BATCH); k++) {
                writes.add(Write.put(fourBytes(k), fourBytes(k)));
            }
            engine.deliver(new CommitRequest(
                    new TxId(LOADING_CLIENT, ++sequence),
                    List.of(engine.partition()),
                    engine.snapshotCounter(),
                    List.of(),
                    writes));
        }
    }

    /** A workload-A transaction's reads and writes. */
    record ReadsAndWrites(List<Bytes> reads, List<Write> writes) {
        /** Keys drawn uniformly from {@code [0, keys)}. */
        static ReadsAndWrites workloadA(Random random, int keys) {
            int[] numbers = new int[WORKLOAD_A_KEY_NUMBERS];
            for (int i = 0; i < numbers.length; i++) {
                numbers[i] = random.nextInt(keys);
            }
            return workloadA(numbers, 0, random.nextInt());
        }

        /**
         * The keys numbered {@code numbers[at ..]}: {@link #WORKLOAD_A_KEYS} read, then as many written with
         * {@code value}, each key and value an object of its own, as the log decoder makes them. The four of each are
         * listed rather than looped into an array: {@code List.of} would copy the array, and this runs inside
         * measured operations.
         */
        static ReadsAndWrites workloadA(int[] numbers, int at, int value) {
            List<Bytes> reads = List.of(
                    fourBytes(numbers[at]),
                    fourBytes(numbers[at + 1]),
                    fourBytes(numbers[at + 2]),
                    fourBytes(numbers[at + 3]));
            List<Write> writes = List.of(
                    Write.put(fourBytes(numbers[at + 4]), fourBytes(value)),
                    Write.put(fourBytes(numbers[at + 5]), fourBytes(value)),
                    Write.put(fourBytes(numbers[at + 6]), fourBytes(value)),
                    Write.put(fourBytes(numbers[at + 7]), fourBytes(value)));
            return new ReadsAndWrites(reads, writes);
        }
    }
}
