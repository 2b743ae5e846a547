package dev.duro.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The deterministic simulation over many seeds (see {@code docs/simulation.md}).
 *
 * <ul>
 *   <li>{@code -Dduro.sim.seeds=N}: run N seeds (the build passes 2,000), from {@code -Dduro.sim.first-seed=S}
 *       (default 0); {@code -Dduro.sim.windows=tiny} gives every seed retention windows of 1–16.
 *   <li>{@code -Dduro.sim.seed=S}: run only seed S, with its trace, and print what it did
 *       ({@code -Dduro.sim.mutant=true} replays a seed of the certifier mutant, see {@link Mutation}).
 * </ul>
 */
class SimulationTest {
    private static final long DEFAULT_SEEDS = 2_000;

    @Test
    void everySeedPassesAllChecks() {
        assumeTrue(System.getProperty("duro.sim.seed") == null, "a single seed was asked for");
        long seeds = Long.getLong("duro.sim.seeds", DEFAULT_SEEDS);
        long first = Long.getLong("duro.sim.first-seed", 0);
        long started = System.nanoTime();
        SeedRunner.Summary summary = SeedRunner.run(first, seeds, Mutation.NONE, result -> false);
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf(
                "simulation: %d seeds from %d%s in %.1f s, %d failed%n  totals: %s%n",
                summary.seedsRun(),
                first,
                "tiny".equals(System.getProperty(SimulationConfig.WINDOWS_PROPERTY)) ? " (tiny windows)" : "",
                elapsedMillis / 1000.0,
                summary.failures().size(),
                summary.totals());
        if (!summary.failures().isEmpty()) {
            String seedsFailed = summary.failures().stream()
                    .map(result -> Long.toString(result.seed()))
                    .collect(Collectors.joining(", "));
            fail("failing seeds (first 20): " + seedsFailed + "\n"
                    + SeedRunner.explain(summary.failures().get(0)));
        }
        assertEquals(seeds, summary.seedsRun());
    }

    @Test
    void replaysOneSeed() {
        String requested = System.getProperty("duro.sim.seed");
        assumeTrue(requested != null, "set -Dduro.sim.seed=S to replay one seed");
        SimulationConfig config = SimulationConfig.forSeed(
                Long.parseLong(requested), Mutation.parse(System.getProperty("duro.sim.mutant")));
        SimulationResult result = Simulation.run(config, true);
        System.out.println(config);
        System.out.println(String.join("\n", result.trace()));
        System.out.println("counters: " + result.counters());
        assertTrue(result.passed(), () -> SeedRunner.explain(result));
    }

    @Test
    void aSeedReplaysExactly() {
        SimulationConfig config = SimulationConfig.forSeed(42, Mutation.NONE);
        SimulationResult first = Simulation.run(config, false);
        SimulationResult again = Simulation.run(config, false);
        SimulationResult traced = Simulation.run(config, true);

        assertEquals(first.counters().toString(), again.counters().toString());
        assertEquals(first.counters().toString(), traced.counters().toString(), "tracing must not change the run");
        assertTrue(first.counters().get("events") > 1000, first.counters()::toString);
        assertTrue(first.counters().get("committed global") > 0, first.counters()::toString);
    }
}
