package dev.duro.core.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;

/**
 * The simulation must notice deliberate defects: each mutant must fail the serializability check on some seed
 * within the seeds of an ordinary build, and that same seed must pass without the mutant.
 */
class MutantTest {
    private static final long DEFAULT_SEEDS = 500;

    /**
     * Engines that skip S-DUR's stronger test for global transactions (the naive protocol of §IV-B) commit
     * non-serializable histories such as Figure 1's.
     */
    @Test
    void catchesCertifierWithoutStrongerTest() {
        assertCaught(Mutation.NO_STRONGER_TEST);
    }

    /** Read-only transactions that read each partition's latest snapshot instead of a consistent cut. */
    @Test
    void catchesReadOnlyTransactionsThatIgnoreTheCut() {
        assertCaught(Mutation.READ_ONLY_WITHOUT_CUT);
    }

    /** Read-only transactions that may read below their own client's earlier commits. */
    @Test
    void catchesReadOnlyTransactionsThatIgnoreTheSession() {
        assertCaught(Mutation.READ_ONLY_WITHOUT_SESSION, Violation.Kind.REAL_TIME);
    }

    /** Linearizable read-only transactions whose cut need not cover what was acknowledged before they began. */
    @Test
    void catchesLinearizableReadsWithoutAReadIndex() {
        assertCaught(Mutation.LINEARIZABLE_WITHOUT_READ_INDEX, Violation.Kind.REAL_TIME);
    }

    /**
     * Engines that certify (or tombstone) an id they forgot as if it were new decide one transaction twice: a
     * replica emits a second outcome, or participants disagree.
     */
    @Test
    void catchesEnginesThatTreatForgottenIdsAsNew() {
        assertCaught(Mutation.CERTIFY_FORGOTTEN, Violation.Kind.DIVERGENCE, Violation.Kind.ATOMICITY);
    }

    /**
     * Engines that certify as if nothing had been scanned let a transaction commit although a key was inserted into
     * (or deleted from, or changed in) a range it scanned since its snapshot: phantoms, which the checker sees as
     * anti-dependency cycles through the absent keys a scan read.
     */
    @Test
    void catchesCertificationThatIgnoresScannedRanges() {
        assertCaught(Mutation.IGNORE_RANGES);
    }

    private static void assertCaught(Mutation mutation) {
        assertCaught(mutation, Violation.Kind.SERIALIZABILITY);
    }

    private static void assertCaught(Mutation mutation, Violation.Kind... kinds) {
        long seeds = Long.getLong("duro.sim.seeds", DEFAULT_SEEDS);
        java.util.function.Predicate<SimulationResult> found =
                result -> java.util.Arrays.stream(kinds).anyMatch(result::found);
        SeedRunner.Summary summary = SeedRunner.run(0, seeds, mutation, found);
        SimulationResult caught =
                summary.failures().stream().filter(found).findFirst().orElse(null);
        if (caught == null) {
            fail("mutant " + mutation.flag() + " survived " + seeds + " seeds");
            return;
        }
        System.out.printf(
                "mutant %s caught by seed %d (after %d seed(s)); replay: %s%n%s%n",
                mutation.flag(),
                caught.seed(),
                summary.seedsRun(),
                SeedRunner.replayCommand(caught.config()),
                caught.violations().stream()
                        .filter(violation -> java.util.Arrays.asList(kinds).contains(violation.kind()))
                        .findFirst()
                        .orElseThrow());
        SimulationResult correct = Simulation.run(SimulationConfig.forSeed(caught.seed(), Mutation.NONE), false);
        assertTrue(
                correct.passed(), () -> "the same seed fails without the mutant too:\n" + SeedRunner.explain(correct));
    }
}
