package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        // Thirty doublings take the base far past the cap, and stop short of overflowing a long.
        return Math.min(BASE.toNanos() << Math.min(30, attempt - 2), MAX.toNanos());
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
        assertEquals(RetryPolicy.COMMIT_RESEND_TIME_DEFAULT, eager.commitResendTime());
    }

    @Test
    void aCommitIsResentUpToTheCountAndOnlyWithinTheResendTime() {
        RetryPolicy twice = new RetryPolicy(3, BASE, MAX, 2, Duration.ofHours(1));
        long now = System.nanoTime();
        assertTrue(twice.mayResendCommit(1, now));
        assertTrue(twice.mayResendCommit(2, now));
        assertFalse(twice.mayResendCommit(3, now), "a third resend, beyond the count");
        assertFalse(
                twice.mayResendCommit(1, now - Duration.ofHours(2).toNanos()), "first sent longer ago than the time");
        assertFalse(new RetryPolicy(3, BASE, MAX, 2, Duration.ZERO).mayResendCommit(1, now), "no time to resend in");
    }

    @Test
    void theDefaultResendsRideOutAnElectionOfSeconds() {
        RetryPolicy policy = RetryPolicy.DEFAULT;
        assertEquals(policy, new RetryPolicy(policy.attemptsMax(), BASE, MAX), "the bounds below are the default's");
        // A leader's failover (an election) takes one to two seconds here. The pauses between the default's resends
        // (before attempt resend + 2 of the commit) are drawn uniformly under their bounds, so on average they sum to
        // half of the bounds: that must span it.
        long bounds = 0;
        for (int resend = 0; resend < policy.commitResendsMax(); resend++) {
            bounds += boundNanos(resend + 2);
        }
        Duration meanPauses = Duration.ofNanos(bounds / 2);
        assertTrue(meanPauses.compareTo(Duration.ofSeconds(3)) >= 0, "pauses of " + meanPauses + " on average");
        assertTrue(policy.commitResendTime().compareTo(Duration.ofSeconds(5)) >= 0, "" + policy.commitResendTime());
    }

    @Test
    void aPolicyThatCouldNeverRunOrWouldPauseBackwardsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, BASE, MAX));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, BASE, MAX, -1));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, MAX, BASE));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, Duration.ofMillis(-1), MAX));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, BASE, MAX, 3, Duration.ofMillis(-1)));
    }
}
