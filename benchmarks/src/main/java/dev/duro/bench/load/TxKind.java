package dev.duro.bench.load;

/** The classes of transaction the load generator reports separately. */
public enum TxKind {
    /** An update transaction whose keys all lie in one partition. */
    LOCAL,
    /** An update transaction over keys of several partitions. */
    GLOBAL,
    /** A transaction that only reads; Duro never certifies or aborts these. */
    READ_ONLY
}
