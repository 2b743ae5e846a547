package dev.duro.core.sim;

import java.util.List;

/** What one run found: its configuration, the violations (empty when it passed), counts, and the trace if on. */
record SimulationResult(SimulationConfig config, List<Violation> violations, Counters counters, List<String> trace) {
    SimulationResult {
        violations = List.copyOf(violations);
        trace = List.copyOf(trace);
    }

    boolean passed() {
        return violations.isEmpty();
    }

    boolean found(Violation.Kind kind) {
        return violations.stream().anyMatch(violation -> violation.kind() == kind);
    }

    long seed() {
        return config.seed();
    }
}
