package dev.duro.core;

import java.util.Objects;

/** The root of every error Duro reports to an application; each subclass names what went wrong. */
public abstract class DuroException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected DuroException(String message) {
        super(Objects.requireNonNull(message, "message"));
    }

    /** Never null: every Duro error says what went wrong. */
    @Override
    public String getMessage() {
        return Objects.requireNonNull(super.getMessage());
    }
}
