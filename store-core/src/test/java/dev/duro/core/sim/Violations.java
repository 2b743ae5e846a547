package dev.duro.core.sim;

import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.List;

/** Collects what a run found wrong (the first 50). A run keeps going after a violation, so it can report several. */
final class Violations {
    private static final int KEPT_MAX = 50;

    private final List<Violation> found = new ArrayList<>();

    void add(Violation.Kind kind, String detail, List<TxId> transactions) {
        if (found.size() < KEPT_MAX) {
            found.add(new Violation(kind, detail, transactions));
        }
    }

    void add(Violation.Kind kind, String detail) {
        add(kind, detail, List.of());
    }

    List<Violation> list() {
        return List.copyOf(found);
    }
}
