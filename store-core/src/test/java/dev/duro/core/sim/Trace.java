package dev.duro.core.sim;

import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What happened in a run, line by line. Off during ordinary runs (formatting every event would cost more than
 * the simulation itself); a failing seed is replayed with it on, which the determinism of the run makes exact.
 */
final class Trace {
    private static final int LINES_MAX = 500_000;

    private final boolean enabled;
    private final Scheduler scheduler;
    private final List<String> lines = new ArrayList<>();

    Trace(boolean enabled, Scheduler scheduler) {
        this.enabled = enabled;
        this.scheduler = scheduler;
    }

    void log(Supplier<String> line) {
        if (enabled && lines.size() < LINES_MAX) {
            lines.add(String.format(Locale.ROOT, "%7d ms  %s", scheduler.now(), line.get()));
        }
    }

    List<String> lines() {
        return lines;
    }

    /** How traces name a transaction: delimited, so searching for one never matches another. */
    static String name(TxId tid) {
        return "T(" + tid + ")";
    }
}
