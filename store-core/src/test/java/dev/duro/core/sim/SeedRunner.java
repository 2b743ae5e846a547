package dev.duro.core.sim;

import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Runs ranges of seeds and explains a failing one by replaying it with the trace on. */
final class SeedRunner {
    private static final int TRACE_LINES_SHOWN = 250;

    /** What a range of seeds gave: the failures (capped), totals of all counters, and the elapsed wall time. */
    record Summary(long seedsRun, List<SimulationResult> failures, Counters totals) {}

    private SeedRunner() {}

    /**
     * Runs seeds {@code first .. first+count-1} in order, stopping early once {@code stopAt} holds for a result.
     * Ordinary runs keep no trace: it costs more than the run, and a failing seed replays exactly.
     */
    static Summary run(long first, long count, Mutation mutation, Predicate<SimulationResult> stopAt) {
        List<SimulationResult> failures = new ArrayList<>();
        Counters totals = new Counters();
        long ran = 0;
        for (long seed = first; seed < first + count; seed++) {
            SimulationResult result = Simulation.run(SimulationConfig.forSeed(seed, mutation), false);
            ran++;
            totals.addAll(result.counters());
            if (!result.passed() && failures.size() < 20) {
                failures.add(result);
            }
            if (stopAt.test(result)) {
                break;
            }
        }
        return new Summary(ran, failures, totals);
    }

    /** How to replay {@code seed} alone, with its trace. */
    static String replayCommand(SimulationConfig config) {
        return "mvn -pl store-core test -Dtest=SimulationTest -Dduro.sim.seed=" + config.seed()
                + (config.mutation() == Mutation.NONE
                        ? ""
                        : " -Dduro.sim.mutant=" + config.mutation().flag());
    }

    /**
     * A report for a failed run: its configuration and violations, and the trace lines about the transactions
     * involved, from a replay with the trace on (which must fail the same way, or the run is not deterministic).
     */
    static String explain(SimulationResult failed) {
        SimulationResult replay = failed.trace().isEmpty() ? Simulation.run(failed.config(), true) : failed;
        StringBuilder out = new StringBuilder();
        out.append("FAILED ").append(failed.config()).append('\n');
        out.append("replay: ").append(replayCommand(failed.config())).append('\n');
        for (Violation violation : failed.violations()) {
            out.append("- ").append(violation).append('\n');
        }
        if (!replay.violations().equals(failed.violations())) {
            out.append("!! the replay with trace found different violations: the run is NOT deterministic:\n");
            for (Violation violation : replay.violations()) {
                out.append("  - ").append(violation).append('\n');
            }
        }
        out.append(traceExcerpt(replay));
        return out.toString();
    }

    private static String traceExcerpt(SimulationResult traced) {
        Set<String> names = new LinkedHashSet<>();
        for (Violation violation : traced.violations()) {
            for (TxId tid : violation.transactions()) {
                names.add(Trace.name(tid));
            }
        }
        List<String> lines = new ArrayList<>();
        for (String line : traced.trace()) {
            if (names.stream().anyMatch(line::contains)) {
                lines.add(line);
            }
        }
        String heading = "trace of " + names;
        if (names.isEmpty()) {
            lines = traced.trace();
            heading = "end of the trace";
        }
        if (lines.size() > TRACE_LINES_SHOWN) {
            heading += " (last " + TRACE_LINES_SHOWN + " of " + lines.size() + " lines)";
            lines = lines.subList(lines.size() - TRACE_LINES_SHOWN, lines.size());
        }
        return heading + ":\n  " + String.join("\n  ", lines) + "\n";
    }
}
