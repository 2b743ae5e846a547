package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.wire.ErrorCode;

/**
 * The server refused a request with a typed error (a limit, an unknown partition, an overload, ...). Refusals by
 * the auth rules have their own subclasses: {@link PermissionDeniedException} and {@link AuthenticationException}.
 */
public class ServerErrorException extends DuroException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ServerErrorException(ErrorCode code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
