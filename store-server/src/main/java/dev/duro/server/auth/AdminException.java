package dev.duro.server.auth;

import java.util.Objects;

/** An administration command that cannot be carried out as asked: the message names the argument and why. */
public final class AdminException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AdminException(String message) {
        super(message);
    }

    /** Never null: the message says what went wrong. */
    @Override
    public String getMessage() {
        return Objects.requireNonNull(super.getMessage());
    }
}
