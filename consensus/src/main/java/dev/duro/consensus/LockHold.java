package dev.duro.consensus;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;

/**
 * How long a piece of a snapshot held the engine's lock, how much of that its thread spent on a CPU, and how much the
 * JVM's collection pauses took of it: the rest it waited for a core (docs/performance.md, "Snapshots that do not
 * stall").
 */
record LockHold(long nanos, long cpuNanos, long pauseMillis) {
    static final LockHold NONE = new LockHold(0, 0, 0);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /**
     * The collectors whose accumulated time is time the JVM stood still. A collector that also reports its concurrent
     * cycles as a bean of their own (Shenandoah's and ZGC's "Cycles") is counted by its pauses only.
     */
    private static final List<GarbageCollectorMXBean> PAUSES = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .filter(bean ->
                    !bean.getName().contains("Cycles") && !bean.getName().contains("Concurrent"))
            .toList();

    /** A measurement begun now, on this thread. */
    static Started start() {
        return new Started(System.nanoTime(), THREADS.getCurrentThreadCpuTime(), pausedMillis());
    }

    /** Milliseconds the JVM's collectors have paused it so far; at a millisecond's grain. */
    private static long pausedMillis() {
        long total = 0;
        for (GarbageCollectorMXBean bean : PAUSES) {
            total += Math.max(0, bean.getCollectionTime());
        }
        return total;
    }

    /** A measurement under way; {@link #end} must be called on the thread that began it. */
    record Started(long nanos, long cpuNanos, long pauseMillis) {
        LockHold end() {
            return new LockHold(
                    System.nanoTime() - nanos,
                    THREADS.getCurrentThreadCpuTime() - cpuNanos,
                    pausedMillis() - pauseMillis);
        }
    }

    /** The longer of this hold and {@code other}. */
    LockHold longer(LockHold other) {
        return other.nanos > nanos ? other : this;
    }

    /** For logs: {@code 5.47 ms (2.37 ms of CPU, 0 ms paused by collections)}. */
    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%.2f ms (%.2f ms of CPU, %d ms paused by collections)",
                nanos / 1e6,
                cpuNanos / 1e6,
                pauseMillis);
    }
}
