package dev.duro.core.sim;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * Simulated time (milliseconds) and the queue of what happens next. Events due at the same millisecond run in
 * the order they were scheduled, so a run is a pure function of its seed: no threads, no sleeps, no wall clock.
 */
final class Scheduler {
    private record Event(long time, long order, Runnable action) {}

    private final PriorityQueue<Event> queue =
            new PriorityQueue<>(Comparator.comparingLong(Event::time).thenComparingLong(Event::order));
    private long now;
    private long scheduled;
    private long executed;

    long now() {
        return now;
    }

    long executed() {
        return executed;
    }

    void at(long time, Runnable action) {
        queue.add(new Event(Math.max(time, now), scheduled++, action));
    }

    void after(long delay, Runnable action) {
        at(now + delay, action);
    }

    /**
     * Runs events in time order until {@code done} holds, {@code maxEvents} more events have run, or the next
     * event is due after {@code deadline}.
     *
     * @return whether {@code done} holds
     */
    boolean runUntil(BooleanSupplier done, long maxEvents, long deadline) {
        for (long ran = 0; ran < maxEvents; ran++) {
            if (done.getAsBoolean()) {
                return true;
            }
            Event next = queue.peek();
            if (next == null || next.time() > deadline) {
                return false;
            }
            queue.poll();
            now = next.time();
            executed++;
            next.action().run();
        }
        return done.getAsBoolean();
    }
}
