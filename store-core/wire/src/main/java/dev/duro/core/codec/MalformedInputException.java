package dev.duro.core.codec;

import dev.duro.core.DuroException;

/** Bytes that are not a valid encoding: truncated, out of range, of an unknown type or version. */
public final class MalformedInputException extends DuroException {
    private static final long serialVersionUID = 1L;

    public MalformedInputException(String message) {
        super(message);
    }
}
