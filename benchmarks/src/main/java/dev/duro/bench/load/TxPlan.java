package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One transaction as a workload describes it, independent of the system that runs it: read {@link #reads()}
 * (in order), then write what {@link #writes(List)} computes from the values read. Every system under test
 * runs the same plans, so a comparison compares systems, not workloads.
 */
public interface TxPlan {
    TxKind kind();

    /** The keys to read, in order; a key may be read and then written. */
    List<Bytes> reads();

    /**
     * The writes, given the values the reads returned (same order as {@link #reads()}; null for a key never
     * written). Empty for a read-only plan. A null value in the result deletes the key.
     */
    Map<Bytes, Bytes> writes(List<Bytes> values);

    /** A range the plan scans instead of reading keys (a read-only plan), or null for none. */
    default @Nullable Scan scan() {
        return null;
    }

    /**
     * A scan of the present keys from {@code from} up (no end), at most {@code limit} of them, as YCSB's scan reads
     * the records after a start key.
     */
    record Scan(Bytes from, int limit) {
        public Scan {
            if (limit < 1) {
                throw new IllegalArgumentException("a scan's limit is at least 1, was " + limit);
            }
        }
    }

    /** A read-only plan that scans. */
    static TxPlan scanning(Bytes from, int limit) {
        Scan scan = new Scan(from, limit);
        return new TxPlan() {
            @Override
            public TxKind kind() {
                return TxKind.READ_ONLY;
            }

            @Override
            public List<Bytes> reads() {
                return List.of();
            }

            @Override
            public Map<Bytes, Bytes> writes(List<Bytes> values) {
                return Map.of();
            }

            @Override
            public Scan scan() {
                return scan;
            }
        };
    }

    /** A plan of fixed writes that do not depend on the values read. */
    static TxPlan of(TxKind kind, List<Bytes> reads, Map<Bytes, Bytes> writes) {
        return new TxPlan() {
            @Override
            public TxKind kind() {
                return kind;
            }

            @Override
            public List<Bytes> reads() {
                return reads;
            }

            @Override
            public Map<Bytes, Bytes> writes(List<Bytes> values) {
                return writes;
            }
        };
    }
}
