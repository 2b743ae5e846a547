package dev.duro.core;

/** A bounded queue on the server is full: the request was refused before doing anything. Retry later. */
public final class OverloadedException extends DuroException {
    private static final long serialVersionUID = 1L;

    public OverloadedException(String message) {
        super(message);
    }
}
