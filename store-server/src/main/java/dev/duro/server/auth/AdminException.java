package dev.duro.server.auth;

/** An administration command that cannot be carried out as asked: the message names the argument and why. */
public final class AdminException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AdminException(String message) {
        super(message);
    }
}
