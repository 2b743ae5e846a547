package dev.duro.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.annotation.Nullable;

/**
 * Extends a warm-up until the JVMs under measurement have stopped compiling: the HotSpot compiler threads of the
 * servers and of this process use less than {@link #SHARE_MAX} of those processes' CPU, over the fixed warm-up and
 * then over two windows of {@link #WINDOW} in a row, or {@code max} has passed.
 *
 * <p>A fresh Duro node spends a third of its CPU on compiling for its first minute under load and keeps compiling for
 * about two (Ratis alone compiled 2,500 methods between its 26th and 46th second in one run), so a short warm-up
 * measured the compiler as much as the store (docs/performance.md, "Warm nodes"). Processes that are not JVMs (etcd,
 * the Go client) have no compiler threads and count as settled. The shares come from Linux's per-thread accounts
 * ({@code /proc/<pid>/task}); where those cannot be read the warm-up is not extended.
 */
final class JitSettle {
    static final double SHARE_MAX = 0.05;
    static final Duration WINDOW = Duration.ofSeconds(5);
    private static final int CALM_WINDOWS = 2;

    private final Supplier<Ticks> ticks;
    private final Duration window;
    private @Nullable Ticks before;

    /** Watches what {@code ticks} reads (null where nothing can be read), from now, in windows of {@code window}. */
    JitSettle(Supplier<Ticks> ticks, Duration window) {
        this.ticks = ticks;
        this.window = window;
        this.before = ticks.get();
    }

    /** Starts watching {@code pids} (servers and this process); call when the fixed warm-up starts. */
    static JitSettle watch(List<Long> pids) {
        List<Long> watched = List.copyOf(pids);
        return new JitSettle(() -> Ticks.of(watched), WINDOW);
    }

    /**
     * Waits, once the fixed warm-up is over, until the compilers have settled or {@code max} has passed; prints each
     * window's share to {@code out}. Returns the extra time waited.
     */
    Duration await(Duration max, PrintStream out) throws InterruptedException {
        if (before == null || max.isZero()) {
            return Duration.ZERO;
        }
        double share = shareSinceLast();
        if (share < SHARE_MAX) {
            return Duration.ZERO;
        }
        long start = System.nanoTime();
        long deadline = start + max.toNanos();
        int calm = 0;
        while (calm < CALM_WINDOWS && System.nanoTime() < deadline) {
            Thread.sleep(Math.min(window.toMillis(), Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            share = shareSinceLast();
            calm = share < SHARE_MAX ? calm + 1 : 0;
            out.printf(
                    Locale.ROOT,
                    "\rwarm-up  JIT compiling: %3.0f%% of the CPU in the last %d s (until < %.0f%% twice, at most %d s"
                            + " more)   ",
                    100 * share,
                    Math.max(1, window.toSeconds()),
                    100 * SHARE_MAX,
                    Math.max(0, (deadline - System.nanoTime()) / 1_000_000_000));
            out.flush();
        }
        out.println();
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        if (calm < CALM_WINDOWS) {
            out.printf(
                    Locale.ROOT,
                    "warning: the JIT still took %.0f%% of the CPU after %d s more warm-up; the measurement includes"
                            + " compiling (--jit-settle)%n",
                    100 * share,
                    waited.toSeconds());
        } else {
            out.printf(Locale.ROOT, "warm-up extended by %d s until the JIT settled%n", waited.toSeconds());
        }
        return waited;
    }

    /** The compilers' share of the watched processes' CPU since the last call; 0 when nothing ran or was read. */
    private double shareSinceLast() {
        Ticks now = ticks.get();
        Ticks last = before;
        before = now;
        if (now == null || last == null) {
            return 0;
        }
        long total = now.total - last.total;
        return total <= 0 ? 0 : (double) (now.compiler - last.compiler) / total;
    }

    /** Clock ticks of CPU (user + system) of the processes' compiler threads, and of all their threads. */
    record Ticks(long compiler, long total) {
        /** Null where the per-thread accounts cannot be read (not Linux). */
        static @Nullable Ticks of(List<Long> pids) {
            Ticks sum = new Ticks(0, 0);
            for (long pid : pids) {
                Path tasks = Path.of("/proc", Long.toString(pid), "task");
                if (!Files.isDirectory(tasks)) {
                    if (Files.isDirectory(Path.of("/proc", "self", "task"))) {
                        continue; // the process is gone
                    }
                    return null;
                }
                try (Stream<Path> threads = Files.list(tasks)) {
                    for (Path thread : threads.toList()) {
                        sum = sum.plus(ofThread(read(thread.resolve("stat"))));
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process ended while it was read: what was read counts
                }
            }
            return sum;
        }

        /**
         * One thread's ticks from its {@code stat} line, {@code "tid (name) state ..."}: utime and stime are fields 14
         * and 15 of proc(5), indexes 11 and 12 after the name. HotSpot names its compilers "C2 CompilerThread0"
         * (cut to 15 characters). None for a thread gone meanwhile (an empty line).
         */
        static Ticks ofThread(String stat) {
            int nameEnd = stat.lastIndexOf(')');
            String[] fields =
                    nameEnd < 0 ? new String[0] : stat.substring(nameEnd + 2).split(" ");
            if (fields.length <= 12) {
                return new Ticks(0, 0);
            }
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return new Ticks(stat.substring(0, nameEnd).contains("CompilerThre") ? ticks : 0, ticks);
        }

        Ticks plus(Ticks other) {
            return new Ticks(compiler + other.compiler, total + other.total);
        }

        private static String read(Path file) {
            try {
                return Files.readString(file);
            } catch (IOException gone) {
                return "";
            }
        }
    }
}
