package dev.duro.bench.load;

/**
 * The transactions one closed-loop client runs, one plan at a time. Each client has its own source (and its
 * own random stream), so a source may keep state without locking.
 */
@FunctionalInterface
public interface TxSource {
    TxPlan next();
}
