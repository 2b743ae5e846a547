package dev.duro.client;

import dev.duro.core.DuroException;

/**
 * The cluster could not be reached or did not answer in time. For a commit, {@link #outcomeUnknown()} says the
 * transaction may or may not have committed; committing the same {@link Transaction} again is safe, since the
 * partitions answer a repeated transaction id with its first outcome.
 */
public final class UnavailableException extends DuroException {
    private static final long serialVersionUID = 1L;

    private final boolean outcomeUnknown;

    public UnavailableException(String message, boolean outcomeUnknown) {
        super(message);
        this.outcomeUnknown = outcomeUnknown;
    }

    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }
}
