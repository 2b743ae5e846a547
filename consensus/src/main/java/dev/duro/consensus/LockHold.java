package dev.duro.consensus;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * How long a piece of a snapshot held the engine's lock, and how much of that its thread spent on a CPU: the rest it
 * waited, for a core or a pause of the JVM (docs/performance.md, "Snapshots that do not stall").
 */
record LockHold(long nanos, long cpuNanos) {
    static final LockHold NONE = new LockHold(0, 0);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A measurement begun now, on this thread. */
    static Started start() {
        return new Started(System.nanoTime(), THREADS.getCurrentThreadCpuTime());
    }

    /** A measurement under way; {@link #end} must be called on the thread that began it. */
    record Started(long nanos, long cpuNanos) {
        LockHold end() {
            return new LockHold(System.nanoTime() - nanos, THREADS.getCurrentThreadCpuTime() - cpuNanos);
        }
    }

    /** The longer of this hold and {@code other}. */
    LockHold longer(LockHold other) {
        return other.nanos > nanos ? other : this;
    }

    /** For logs: {@code 5.47 ms (2.37 ms of CPU)}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.2f ms (%.2f ms of CPU)", nanos / 1e6, cpuNanos / 1e6);
    }
}
