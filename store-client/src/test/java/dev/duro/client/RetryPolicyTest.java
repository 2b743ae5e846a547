package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pauses between attempts: random ("full jitter") under a bound that doubles per attempt up to a cap. */
class RetryPolicyTest {
    private static final Duration BASE = Duration.ofMillis(2);
    private static final Duration MAX = Duration.ofMillis(200);
    private final RetryPolicy policy = new RetryPolicy(10, BASE, MAX);

    /** The most {@code attempt}'s pause may be: the base, doubled per retry after the first, capped. */
    private static long boundNanos(int attempt) {
        return Math.min(BASE.toNanos() << (attempt - 2), MAX.toNanos());
    }

    @Test
    void eachPauseIsBetweenZeroAndABoundThatDoublesPerAttemptUpToTheCap() {
        for (int attempt = 2; attempt <= 12; attempt++) {
            long longest = 0;
            for (int draw = 0; draw < 2_000; draw++) {
                long pause = policy.backoff(attempt).toNanos();
                assertTrue(pause >= 0 && pause <= boundNanos(attempt), "attempt " + attempt + ": " + pause + " ns");
                longest = Math.max(longest, pause);
            }
            // Spread over the whole range, not stuck at its start: 2,000 uniform draws all in the lower half of the
            // range would happen with probability 2^-2000.
            assertTrue(longest > boundNanos(attempt) / 2, "attempt " + attempt + " never paused beyond " + longest);
        }
    }

    @Test
    void theBoundStopsGrowingAtTheCapHoweverManyAttempts() {
        for (int attempt : new int[] {9, 30, 1_000, Integer.MAX_VALUE}) {
            assertTrue(policy.backoff(attempt).compareTo(MAX) <= 0, "attempt " + attempt);
        }
    }

    @Test
    void aPolicyWithoutBackoffNeverPauses() {
        RetryPolicy eager = new RetryPolicy(3, Duration.ZERO, Duration.ZERO);
        for (int attempt = 2; attempt < 10; attempt++) {
            assertEquals(Duration.ZERO, eager.backoff(attempt));
        }
        assertEquals(RetryPolicy.COMMIT_RESENDS_MAX_DEFAULT, eager.commitResendsMax());
    }

    @Test
    void aPolicyThatCouldNeverRunOrWouldPauseBackwardsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, BASE, MAX));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, BASE, MAX, -1));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, MAX, BASE));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, Duration.ofMillis(-1), MAX));
    }
}
