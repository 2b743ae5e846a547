package dev.duro.core;

/** The root of every error Duro reports to an application; each subclass names what went wrong. */
public abstract class DuroException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected DuroException(String message) {
        super(message);
    }
}
