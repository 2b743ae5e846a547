package dev.duro.core.engine;

/** Deliberate defects for the simulation's mutants (see {@code dev.duro.core.sim.Mutation}). */
public final class EngineMutants {
    private EngineMutants() {}

    /** The engine certifies, or tombstones, an id it may have forgotten as if it were new. */
    public static PartitionEngine treatForgottenAsNew(PartitionEngine engine) {
        engine.delivery().mutantTreatsForgottenAsNew = true;
        return engine;
    }

    /** The engine certifies and records every transaction as if it had scanned no range. */
    public static PartitionEngine ignoreScannedRanges(PartitionEngine engine) {
        engine.delivery().mutantIgnoresRanges = true;
        return engine;
    }
}
