package dev.duro.server;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** Polling with a deadline: the only way these tests wait for the cluster. */
final class Await {
    /** Generous: the machines running these tests are small and shared. The happy path takes far less. */
    static final Duration DEADLINE = Duration.ofSeconds(60);

    private static final long POLL_MILLIS = 25;

    private Await() {}

    /** What a poll found: done, or not yet and why (the last reason goes into the failure message). */
    record Poll<T>(T value, String notYet) {
        static <T> Poll<T> done(T value) {
            return new Poll<>(value, null);
        }

        static <T> Poll<T> notYet(String why) {
            return new Poll<>(null, why);
        }
    }

    /** Polls {@code probe} until it is done; fails naming {@code what} and the last reason after the deadline. */
    static <T> T until(String what, Duration deadline, Supplier<Poll<T>> probe) {
        long end = System.nanoTime() + deadline.toNanos();
        String lastReason = "never polled";
        while (true) {
            Poll<T> poll;
            try {
                poll = probe.get();
            } catch (RuntimeException e) {
                poll = Poll.notYet(e.toString());
            }
            if (poll.notYet() == null) {
                return poll.value();
            }
            lastReason = poll.notYet();
            if (System.nanoTime() > end) {
                throw new AssertionError(
                        what + " did not happen within " + deadline.toSeconds() + " s; last: " + lastReason);
            }
            pause(POLL_MILLIS);
        }
    }

    static <T> T until(String what, Supplier<Poll<T>> probe) {
        return until(what, DEADLINE, probe);
    }

    /** A pause between polls; never used to wait for an event by itself. */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling", e);
        }
    }

    /** Waits for every thread to end, each within {@link #DEADLINE}; one still running fails the test. */
    static void joinAll(List<Thread> threads) {
        for (Thread thread : threads) {
            try {
                thread.join(DEADLINE.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while stopping " + thread.getName(), e);
            }
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not stop");
            }
        }
    }
}
