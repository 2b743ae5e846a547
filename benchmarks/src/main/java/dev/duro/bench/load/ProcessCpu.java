package dev.duro.bench.load;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Collection;

/**
 * CPU time (user + system) of processes, from the JDK's {@link ProcessHandle.Info#totalCpuDuration()}: the
 * operating system's own account, in its own clock ticks. It covers a process's threads, exited ones included, but
 * not its child processes. The processes measured are the ones that do the work: each Duro node is a {@code java}
 * process the load generator starts itself, or {@code ./duro local} starts with {@code nohup java} (which becomes
 * the JVM, so the pid in {@code data/n*.pid} is the JVM's); each etcd member is the {@code etcd} binary itself,
 * which starts no children.
 */
final class ProcessCpu {
    private ProcessCpu() {}

    /** CPU nanoseconds used so far by all of {@code pids}, each counted as {@link #nanos(long)} does. */
    static long nanos(Collection<Long> pids) {
        long total = 0;
        for (long pid : pids) {
            total += nanos(pid);
        }
        return total;
    }

    /**
     * CPU nanoseconds used so far by process {@code pid}; 0 once it is gone, or where the system does not tell
     * (another user's process on some systems).
     */
    static long nanos(long pid) {
        return ProcessHandle.of(pid)
                .flatMap(process -> process.info().totalCpuDuration())
                .map(Duration::toNanos)
                .orElse(0L);
    }

    /**
     * CPU nanoseconds this JVM has used so far. The platform bean's figure, where it has one, is finer than the
     * process handle's (nanoseconds rather than clock ticks), which counts over a short measured period.
     */
    static long thisProcessNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            if (nanos >= 0) {
                return nanos;
            }
        }
        return nanos(ProcessHandle.current().pid());
    }
}
