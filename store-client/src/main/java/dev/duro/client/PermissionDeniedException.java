package dev.duro.client;

import dev.duro.core.wire.ErrorCode;

/**
 * The cluster's auth rules do not let this client's user read or write a key the request touched, or run an admin
 * command; the message names the key (or its prefix) and the user. A refused commit applied nothing. Final: every
 * node enforces the same rules, so the client does not retry it elsewhere (docs/auth.md).
 */
public final class PermissionDeniedException extends ServerErrorException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String message) {
        super(ErrorCode.PERMISSION_DENIED, message);
    }
}
