package dev.duro.core.engine;

import dev.duro.core.TxId;

/** What a partition's log delivers to its engine, in the same order at every replica. */
public sealed interface Command permits CommitRequest, AbortRequest {
    TxId tid();
}
