package dev.duro.client;

import dev.duro.core.AbortReason;
import dev.duro.core.DuroException;

/**
 * Certification aborted the transaction: nothing it wrote is visible. {@link #reason()} names the partition,
 * the conflicting key and the kind of conflict. Retrying the whole transaction (as
 * {@link DuroClient#transact} does) usually succeeds.
 */
public final class TransactionAbortedException extends DuroException {
    private static final long serialVersionUID = 1L;

    private final transient AbortReason reason;

    public TransactionAbortedException(AbortReason reason) {
        super("transaction aborted: " + reason);
        this.reason = reason;
    }

    public AbortReason reason() {
        return reason;
    }
}
