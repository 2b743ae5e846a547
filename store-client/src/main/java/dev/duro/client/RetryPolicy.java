package dev.duro.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How {@link DuroClient#transact} retries: at most {@code attemptsMax} runs of the body for transactions known
 * not to have committed, and resends of one transaction's commit while its outcome is unknown, at most {@code
 * commitResendsMax} of them and none once {@code commitResendTime} has passed since its first send. Between them it
 * sleeps a random ("full jitter") time up to an exponentially growing bound, so contending clients spread out instead
 * of colliding again.
 *
 * <p>The defaults resend a commit for up to about ten seconds: long enough to ride out a partition's leader failing
 * over, which takes an election of a second or two, without handing the application an unknown outcome it would
 * have to resolve itself (docs/design-decisions.md, "Commits resent through a failover").
 */
public record RetryPolicy(
        int attemptsMax, Duration backoffBase, Duration backoffMax, int commitResendsMax, Duration commitResendTime) {
    /** Resends of a commit of unknown outcome when a policy does not say. */
    public static final int COMMIT_RESENDS_MAX_DEFAULT = 50;
    /** How long after its first send a commit of unknown outcome may still be resent, when a policy does not say. */
    public static final Duration COMMIT_RESEND_TIME_DEFAULT = Duration.ofSeconds(10);

    public static final RetryPolicy DEFAULT = new RetryPolicy(10, Duration.ofMillis(2), Duration.ofMillis(200));

    public RetryPolicy {
        if (attemptsMax < 1) {
            throw new IllegalArgumentException("attemptsMax must be >= 1: " + attemptsMax);
        }
        if (commitResendsMax < 0) {
            throw new IllegalArgumentException("commitResendsMax must be >= 0: " + commitResendsMax);
        }
        if (commitResendTime.isNegative()) {
            throw new IllegalArgumentException("commitResendTime must be >= 0: " + commitResendTime);
        }
        if (backoffBase.isNegative() || backoffMax.compareTo(backoffBase) < 0) {
            throw new IllegalArgumentException("need 0 <= backoffBase <= backoffMax");
        }
    }

    /** A policy that resends a commit for up to {@link #COMMIT_RESEND_TIME_DEFAULT}. */
    public RetryPolicy(int attemptsMax, Duration backoffBase, Duration backoffMax, int commitResendsMax) {
        this(attemptsMax, backoffBase, backoffMax, commitResendsMax, COMMIT_RESEND_TIME_DEFAULT);
    }

    /**
     * A policy with the default resends of a commit: {@link #COMMIT_RESENDS_MAX_DEFAULT} within {@link
     * #COMMIT_RESEND_TIME_DEFAULT}.
     */
    public RetryPolicy(int attemptsMax, Duration backoffBase, Duration backoffMax) {
        this(attemptsMax, backoffBase, backoffMax, COMMIT_RESENDS_MAX_DEFAULT, COMMIT_RESEND_TIME_DEFAULT);
    }

    /**
     * Whether a commit first sent at {@code firstSentNanos} ({@link System#nanoTime}) may be resent a {@code
     * resend}th time now.
     */
    boolean mayResendCommit(int resend, long firstSentNanos) {
        return resend <= commitResendsMax && System.nanoTime() - firstSentNanos < commitResendTime.toNanos();
    }

    /** The pause before attempt {@code attempt} (2 for the first retry). */
    Duration backoff(int attempt) {
        long bound = backoffBase.toNanos() << Math.min(20, Math.max(0, attempt - 2));
        long capped = Math.min(bound, backoffMax.toNanos());
        return Duration.ofNanos(capped <= 0 ? 0 : ThreadLocalRandom.current().nextLong(capped + 1));
    }

    /** Sleeps for {@code duration} between attempts; an interrupt ends the retries. */
    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while backing off", false);
        }
    }
}
