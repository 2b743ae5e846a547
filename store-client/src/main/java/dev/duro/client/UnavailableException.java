package dev.duro.client;

import dev.duro.core.DuroException;

/**
 * The cluster could not be reached or did not answer in time, or no longer knows how a commit ended. For a
 * commit, {@link #outcomeUnknown()} says the transaction may or may not have committed. Committing the same
 * {@link Transaction} again is safe: it resends the same request under the same id, and the partitions answer a
 * repeated transaction id with its first outcome. When they no longer retain that outcome ({@link
 * dev.duro.core.wire.ErrorCode#OUTCOME_UNKNOWN}) the answer is final: committing again gets it again.
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
