package dev.duro.bench.load;

/**
 * The S-DUR paper's workloads (Table I): reads and writes per transaction, key and value sizes. Writes go to
 * keys the transaction read (the paper's {@code ws ⊆ rs}).
 */
public enum Workload {
    A(4, 4, 4),
    B(2, 2, 1024),
    C(8, 0, 4),
    D(4, 0, 1024);

    private final int reads;
    private final int writes;
    private final int valueBytes;

    Workload(int reads, int writes, int valueBytes) {
        this.reads = reads;
        this.writes = writes;
        this.valueBytes = valueBytes;
    }

    public int reads() {
        return reads;
    }

    public int writes() {
        return writes;
    }

    public int valueBytes() {
        return valueBytes;
    }

    public boolean readOnly() {
        return writes == 0;
    }
}
