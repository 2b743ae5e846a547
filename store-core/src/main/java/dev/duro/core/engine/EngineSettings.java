package dev.duro.core.engine;

import dev.duro.core.certify.CertifierSettings;

/**
 * Settings of one partition's engine. Those marked <em>replicated</em> influence decisions or state and must be
 * identical at every replica of a partition; the timing ones are local to a replica and only affect liveness.
 *
 * @param certification replicated: how transactions are certified (window K, bloom summaries)
 * @param snapshotsRetained replicated: how many versions behind {@code SC} stay readable; reads below
 *     {@code SC - snapshotsRetained} fail with {@code SnapshotTooOldException}
 * @param outcomesRetained replicated: how many of the transactions delivered last keep their outcome (a pending
 *     one holds its place), to answer duplicate commits, late abort requests and late votes. Counted in log order,
 *     so every replica forgets the same outcomes at the same point of the log; a global whose decision is not
 *     logged yet stays pinned beyond it. Any value is safe: a smaller one turns more retried commits into
 *     {@code OUTCOME_UNKNOWN} (docs/window-safety.md).
 * @param bufferedVotesMax local: votes held for transactions not yet delivered here (oldest dropped first;
 *     a dropped vote is fetched again by retransmission)
 * @param voteResendAfterMillis local: a global transaction that waits this long at the head of {@code PENDING}
 *     makes this replica send its own vote and ask for the missing ones, and again at this interval
 * @param abortRequestAfterMillis local: after waiting this long for a participant's vote, propose an
 *     {@link AbortRequest} into its log (the designated voter only); a decision this replica
 *     finished from votes but has not seen logged is proposed again after this long (every other replica after
 *     twice as long)
 */
public record EngineSettings(
        CertifierSettings certification,
        long snapshotsRetained,
        int outcomesRetained,
        int bufferedVotesMax,
        long voteResendAfterMillis,
        long abortRequestAfterMillis) {
    public static final EngineSettings DEFAULT =
            new EngineSettings(CertifierSettings.DEFAULT, 100_000, 100_000, 100_000, 50, 3_000);

    public EngineSettings {
        requireAtLeast("engine.snapshots-retained", snapshotsRetained, 1);
        requireAtLeast("engine.outcomes-retained", outcomesRetained, 1);
        requireAtLeast("engine.buffered-votes-max", bufferedVotesMax, 1);
        requireAtLeast("engine.vote-resend-after-millis", voteResendAfterMillis, 1);
        requireAtLeast("engine.abort-request-after-millis", abortRequestAfterMillis, 1);
    }

    private static void requireAtLeast(String name, long value, long minimum) {
        if (value < minimum) {
            throw new IllegalArgumentException(name + " must be >= " + minimum + ", was " + value);
        }
    }

    public EngineSettings withCertification(CertifierSettings settings) {
        return new EngineSettings(
                settings,
                snapshotsRetained,
                outcomesRetained,
                bufferedVotesMax,
                voteResendAfterMillis,
                abortRequestAfterMillis);
    }

    public EngineSettings withRetention(long snapshots, int outcomes) {
        return new EngineSettings(
                certification, snapshots, outcomes, bufferedVotesMax, voteResendAfterMillis, abortRequestAfterMillis);
    }

    public EngineSettings withTimeouts(long voteResendAfter, long abortRequestAfter) {
        return new EngineSettings(
                certification,
                snapshotsRetained,
                outcomesRetained,
                bufferedVotesMax,
                voteResendAfter,
                abortRequestAfter);
    }
}
