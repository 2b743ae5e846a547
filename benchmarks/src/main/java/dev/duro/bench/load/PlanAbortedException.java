package dev.duro.bench.load;

/** A system refused a transaction (an abort, not an error); {@link #reason()} names why, for the report. */
public final class PlanAbortedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public PlanAbortedException(String reason) {
        super(reason, null, false, false);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
