package dev.duro.client;

import dev.duro.core.wire.ErrorCode;

/**
 * Auth is enabled and this client did not authenticate (no {@code credentials} given to the builder), or its user
 * name and password were refused (docs/auth.md).
 */
public final class AuthenticationException extends ServerErrorException {
    private static final long serialVersionUID = 1L;

    public AuthenticationException(String message) {
        super(ErrorCode.UNAUTHENTICATED, message);
    }
}
