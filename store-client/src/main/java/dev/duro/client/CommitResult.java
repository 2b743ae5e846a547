package dev.duro.client;

import dev.duro.core.TxId;
import java.util.Map;

/**
 * A committed transaction: its id and its version (commit number) at each partition it touched. A read-only
 * transaction commits with no versions.
 */
public record CommitResult(TxId tid, Map<Integer, Long> versions) {
    public CommitResult {
        versions = Map.copyOf(versions);
    }
}
