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

    private static void assertCaught(Mutation mutation) {
        long seeds = Long.getLong("duro.sim.seeds", DEFAULT_SEEDS);
        SeedRunner.Summary summary =
                SeedRunner.run(0, seeds, mutation, result -> result.found(Violation.Kind.SERIALIZABILITY));
        SimulationResult caught = summary.failures().stream()
                .filter(result -> result.found(Violation.Kind.SERIALIZABILITY))
                .findFirst()
                .orElse(null);
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
                        .filter(violation -> violation.kind() == Violation.Kind.SERIALIZABILITY)
                        .findFirst()
                        .orElseThrow());
        SimulationResult correct = Simulation.run(SimulationConfig.forSeed(caught.seed(), Mutation.NONE), false);
        assertTrue(
                correct.passed(), () -> "the same seed fails without the mutant too:\n" + SeedRunner.explain(correct));
    }
}
