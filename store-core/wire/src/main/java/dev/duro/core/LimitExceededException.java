package dev.duro.core;

/** A key, value or transaction broke a configured limit. The message and {@link #limit()} name it. */
public final class LimitExceededException extends DuroException {
    private static final long serialVersionUID = 1L;

    private final Limits.Limit limit;
    private final long actual;
    private final long maximum;

    public LimitExceededException(Limits.Limit limit, long actual, long maximum) {
        super(limit.settingName() + " exceeded: " + actual + " " + limit.unit() + " > " + maximum);
        this.limit = limit;
        this.actual = actual;
        this.maximum = maximum;
    }

    public Limits.Limit limit() {
        return limit;
    }

    public long actual() {
        return actual;
    }

    public long maximum() {
        return maximum;
    }
}
