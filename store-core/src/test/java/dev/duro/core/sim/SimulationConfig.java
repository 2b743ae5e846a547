package dev.duro.core.sim;

import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.engine.EngineSettings;

/**
 * The shape of one simulated run, drawn from its seed so that different seeds also explore different cluster
 * sizes, workloads, fault rates and engine settings (small certification windows, bloom summaries, garbage
 * collection of old versions, tiny vote buffers).
 *
 * @param contended which profile the run follows (see {@link #forSeed})
 * @param transactions how many transactions the clients start in total
 * @param keysPerPartitionMax a transaction touches 1 to this many keys at each of its partitions
 * @param writeShare the chance that a global update transaction writes at a given one of its partitions (it
 *     only reads at the others)
 * @param hotShare the chance that a key a transaction touches is one of the few hot keys of its partition
 * @param globalShare the chance that an update transaction spans 2–4 partitions
 * @param readOnlyShare the chance that a transaction is declared read-only
 * @param undeclaredReadOnlyShare the chance that an update transaction ends up writing nothing (it is still
 *     certified, like any transaction not declared read-only)
 * @param messageDropRate the chance that a vote or a reply is lost
 * @param messageDuplicateRate the chance that a vote, reply or frontier arrives twice
 * @param clientCrashRate the chance that a client dies between the per-partition broadcasts of a global commit
 * @param replicaCrashIntervalMillis mean time between replica crashes across the cluster
 * @param leaderChangeIntervalMillis mean time between moves of a partition's designated voter
 * @param versionsCollected whether old versions are garbage-collected (small {@code snapshotsRetained}); reads
 *     that fall below the horizon are then retried, which is the only reason a read-only transaction restarts
 * @param tinyWindows whether the retention windows (outcomes retained, certification window K) are 1–16, so
 *     that replicas and clients constantly meet transactions their partitions forgot (docs/window-safety.md)
 */
record SimulationConfig(
        long seed,
        Mutation mutation,
        boolean contended,
        int partitions,
        int replicas,
        int clients,
        int transactions,
        int hotKeys,
        int coldKeys,
        int keysPerPartitionMax,
        double writeShare,
        double hotShare,
        double globalShare,
        double readOnlyShare,
        double undeclaredReadOnlyShare,
        double messageDropRate,
        double messageDuplicateRate,
        double clientCrashRate,
        long replicaCrashIntervalMillis,
        long leaderChangeIntervalMillis,
        boolean versionsCollected,
        boolean tinyWindows,
        EngineSettings engine) {
    /** {@code -Dduro.sim.windows=tiny} draws tiny windows for every seed; by default a share of seeds does. */
    static final String WINDOWS_PROPERTY = "duro.sim.windows";

    /**
     * The run for {@code seed}, carrying {@code mutation} (usually {@link Mutation#NONE}).
     *
     * <p>Two profiles alternate. A <em>broad</em> run has more partitions, clients and keys and many faults. A
     * <em>contended</em> run has few clients hammering one or two hot keys per partition with mostly global
     * transactions and milder faults: that is where two global transactions meet on the same keys in opposite
     * orders at two partitions (S-DUR's Figure 1) and both survive everything else, so it is what catches a
     * certifier that forgets the stronger test.
     */
    static SimulationConfig forSeed(long seed, Mutation mutation) {
        Dice dice = new Dice(seed * 0x9E3779B97F4A7C15L + 17);
        boolean contended = dice.chance(0.5);
        boolean versionsCollected = dice.chance(0.25);
        boolean tinyWindows = dice.chance(0.3) || "tiny".equals(System.getProperty(WINDOWS_PROPERTY));
        return new SimulationConfig(
                seed,
                mutation,
                contended,
                contended ? dice.between(2, 3) : dice.between(2, 4),
                3,
                contended ? dice.between(2, 4) : dice.between(4, 8),
                contended ? dice.between(100, 160) : dice.between(120, 220),
                contended ? dice.between(1, 2) : dice.between(2, 4),
                30,
                contended ? dice.between(1, 2) : dice.between(1, 3),
                0.5,
                contended ? 0.9 : 0.5 + 0.3 * dice.fraction(),
                contended ? 0.85 : 0.35 + 0.35 * dice.fraction(),
                0.1 + 0.15 * dice.fraction(),
                0.05,
                contended ? 0.01 + 0.02 * dice.fraction() : 0.02 + 0.13 * dice.fraction(),
                0.05,
                contended ? 0.01 + 0.02 * dice.fraction() : 0.03 + 0.07 * dice.fraction(),
                dice.between(150, 600),
                dice.between(200, 800),
                versionsCollected,
                tinyWindows,
                engineSettings(dice, mutation, versionsCollected, tinyWindows));
    }

    private static EngineSettings engineSettings(
            Dice dice, Mutation mutation, boolean versionsCollected, boolean tinyWindows) {
        // A window far above a run's transaction count never aborts anything as too old; a small one does.
        int window = tinyWindows ? dice.between(1, 16) : dice.chance(0.5) ? 4_096 : dice.between(12, 60);
        CertifierSettings certification = CertifierSettings.DEFAULT
                .withStrongerTestForGlobal(mutation != Mutation.NO_STRONGER_TEST)
                .withWindowTransactions(window);
        int bloomChoice = dice.between(0, 2);
        certification = certification.withBloomReadSetKeysMin(
                bloomChoice == 0 ? Integer.MAX_VALUE : bloomChoice == 1 ? 0 : dice.between(2, 5));
        long snapshotsRetained = versionsCollected ? dice.between(20, 80) : 1_000_000;
        int bufferedVotesMax = dice.chance(0.2) ? dice.between(1, 4) : 100_000;
        int outcomesRetained = tinyWindows ? dice.between(1, 16) : 1_000_000;
        return new EngineSettings(
                certification,
                snapshotsRetained,
                outcomesRetained,
                bufferedVotesMax,
                dice.between(15, 60),
                dice.between(80, 400));
    }

    @Override
    public String toString() {
        return String.format(
                java.util.Locale.ROOT,
                "seed %d%s, %s: %d partitions x %d replicas, %d clients, %d transactions,"
                        + " %d hot + %d cold keys/partition, hot %.2f, global %.2f, read-only %.2f, drop %.2f, client crash %.2f,"
                        + " replica crash every ~%d ms, leader change every ~%d ms, K=%d, bloom>=%d, versions kept %d,"
                        + " outcomes kept %d%s, buffered votes %d, resend %d ms, abort request %d ms",
                seed,
                mutation == Mutation.NONE ? "" : " (MUTANT: " + mutation.flag() + ")",
                contended ? "contended" : "broad",
                partitions,
                replicas,
                clients,
                transactions,
                hotKeys,
                coldKeys,
                hotShare,
                globalShare,
                readOnlyShare,
                messageDropRate,
                clientCrashRate,
                replicaCrashIntervalMillis,
                leaderChangeIntervalMillis,
                engine.certification().windowTransactions(),
                engine.certification().bloomReadSetKeysMin(),
                engine.snapshotsRetained(),
                engine.outcomesRetained(),
                tinyWindows ? " (tiny windows)" : "",
                engine.bufferedVotesMax(),
                engine.voteResendAfterMillis(),
                engine.abortRequestAfterMillis());
    }
}
