package dev.duro.core;

import java.util.Random;

/**
 * Runs a randomised check over many seeds. A failure is rethrown with its seed in the message, and
 * {@code -Dduro.test.seed=N} replays that one seed alone.
 */
public final class SeededRuns {
    /** One seeded run; throws on failure. */
    @FunctionalInterface
    public interface Check {
        void run(Random random) throws Exception;
    }

    private SeededRuns() {}

    /** Runs {@code check} for seeds {@code base .. base + count - 1}, or only the replayed seed if one is set. */
    public static void forSeeds(long base, int count, Check check) {
        String replay = System.getProperty("duro.test.seed");
        if (replay != null) {
            runOne(Long.parseLong(replay), check);
            return;
        }
        for (long seed = base; seed < base + count; seed++) {
            runOne(seed, check);
        }
    }

    private static void runOne(long seed, Check check) {
        try {
            check.run(new Random(seed));
        } catch (Throwable failure) {
            throw new AssertionError(
                    "failed with seed " + seed + " (replay with -Dduro.test.seed=" + seed + "): " + failure, failure);
        }
    }
}
