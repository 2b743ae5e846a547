package dev.duro.bench.load;

import com.google.common.base.CharMatcher;
import com.google.common.base.Splitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * CPU time of another process, read from Linux's {@code /proc/<pid>/stat}: {@code utime + stime}, fields 14 and
 * 15, in clock ticks of {@link #TICKS_PER_SECOND} (Linux reports USER_HZ = 100 to user space on every common
 * architecture). Threads that have exited are included; children are not (etcd has none).
 */
final class ProcessCpu {
    static final long TICKS_PER_SECOND = 100;
    private static final Splitter WHITESPACE =
            Splitter.on(CharMatcher.whitespace()).omitEmptyStrings();

    private ProcessCpu() {}

    /** CPU nanoseconds used so far by all of {@code pids}, each counted as {@link #nanos(long)} does. */
    static long nanos(Collection<Long> pids) {
        long total = 0;
        for (long pid : pids) {
            total += nanos(pid);
        }
        return total;
    }

    /** CPU nanoseconds used so far by {@code pid}; 0 once it is gone (or off Linux). */
    static long nanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            return ticks(stat) * (1_000_000_000L / TICKS_PER_SECOND);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * {@code utime + stime} of one {@code /proc/<pid>/stat} line. The command name (field 2) is in parentheses
     * and may hold spaces or parentheses itself, so the fields are counted from the last ')'.
     */
    static long ticks(String statLine) {
        int end = statLine.lastIndexOf(')');
        if (end < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + statLine);
        }
        List<String> fields = WHITESPACE.splitToList(statLine.substring(end + 1));
        // fields.get(0) is field 3 (state), so field n is fields.get(n - 3).
        if (fields.size() < 13) {
            throw new IllegalArgumentException("/proc/<pid>/stat line too short: " + statLine);
        }
        return Long.parseLong(fields.get(14 - 3)) + Long.parseLong(fields.get(15 - 3));
    }
}
