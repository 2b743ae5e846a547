package dev.duro.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How {@link DuroClient#transact} retries: at most {@code attemptsMax} runs of the body for transactions known
 * not to have committed, and at most {@code commitResendsMax} resends of one transaction's commit while its
 * outcome is unknown. Between them it sleeps a random ("full jitter") time up to an exponentially growing bound,
 * so contending clients spread out instead of colliding again.
 */
public record RetryPolicy(int attemptsMax, Duration backoffBase, Duration backoffMax, int commitResendsMax) {
    /** Resends of a commit of unknown outcome when a policy does not say. */
    public static final int COMMIT_RESENDS_MAX_DEFAULT = 3;

    public static final RetryPolicy DEFAULT = new RetryPolicy(10, Duration.ofMillis(2), Duration.ofMillis(200));

    public RetryPolicy {
        if (attemptsMax < 1) {
            throw new IllegalArgumentException("attemptsMax must be >= 1: " + attemptsMax);
        }
        if (commitResendsMax < 0) {
            throw new IllegalArgumentException("commitResendsMax must be >= 0: " + commitResendsMax);
        }
        if (backoffBase.isNegative() || backoffMax.compareTo(backoffBase) < 0) {
            throw new IllegalArgumentException("need 0 <= backoffBase <= backoffMax");
        }
    }

    /** A policy with {@link #COMMIT_RESENDS_MAX_DEFAULT} resends. */
    public RetryPolicy(int attemptsMax, Duration backoffBase, Duration backoffMax) {
        this(attemptsMax, backoffBase, backoffMax, COMMIT_RESENDS_MAX_DEFAULT);
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
