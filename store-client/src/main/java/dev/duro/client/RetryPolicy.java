package dev.duro.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How {@link DuroClient#transact} retries aborted transactions: at most {@code attemptsMax} attempts, sleeping
 * a random ("full jitter") time up to an exponentially growing bound between them, so contending clients
 * spread out instead of colliding again.
 */
public record RetryPolicy(int attemptsMax, Duration backoffBase, Duration backoffMax) {
    public static final RetryPolicy DEFAULT = new RetryPolicy(10, Duration.ofMillis(2), Duration.ofMillis(200));

    public RetryPolicy {
        if (attemptsMax < 1) {
            throw new IllegalArgumentException("attemptsMax must be >= 1: " + attemptsMax);
        }
        if (backoffBase.isNegative() || backoffMax.compareTo(backoffBase) < 0) {
            throw new IllegalArgumentException("need 0 <= backoffBase <= backoffMax");
        }
    }

    /** The pause before attempt {@code attempt} (2 for the first retry). */
    Duration backoff(int attempt) {
        long bound = backoffBase.toNanos() << Math.min(20, Math.max(0, attempt - 2));
        long capped = Math.min(bound, backoffMax.toNanos());
        return Duration.ofNanos(capped <= 0 ? 0 : ThreadLocalRandom.current().nextLong(capped + 1));
    }
}
