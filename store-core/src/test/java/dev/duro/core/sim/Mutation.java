package dev.duro.core.sim;

import java.util.Locale;

/**
 * A deliberate defect a run can carry, to prove the checks notice it. Ordinary runs carry none.
 *
 * <p>On the command line ({@code -Dduro.sim.mutant=...}): {@code true} or {@code no-stronger-test} for
 * {@link #NO_STRONGER_TEST}, {@code read-only-without-cut} for {@link #READ_ONLY_WITHOUT_CUT}.
 */
enum Mutation {
    NONE,
    /** Engines certify globals with the naive test of S-DUR §IV-B (no readset-versus-writeset check). */
    NO_STRONGER_TEST,
    /** Declared read-only transactions read each partition at its voter's SC instead of a consistent cut. */
    READ_ONLY_WITHOUT_CUT,
    /** Read-only transactions take any consistent cut, even one below their client's own commits. */
    READ_ONLY_WITHOUT_SESSION,
    /** Linearizable read-only transactions skip the ReadIndex: their cut need not cover what was acknowledged. */
    LINEARIZABLE_WITHOUT_READ_INDEX,
    /**
     * Engines treat an id they no longer retain as new (docs/window-safety.md): a late repeat is certified again and
     * a late abort request tombstones it. Only runs with tiny windows forget anything.
     */
    CERTIFY_FORGOTTEN,
    /** Engines certify as if no transaction had scanned a range: inserts and deletes inside a scan (phantoms) commit. */
    IGNORE_RANGES;

    static Mutation parse(String text) {
        if (text == null || text.isEmpty() || text.equals("false")) {
            return NONE;
        }
        if (text.equals("true")) {
            return NO_STRONGER_TEST;
        }
        return valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    String flag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
