package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.SnapshotTooOldException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs application bodies in transactions under a {@link RetryPolicy} ({@link DuroClient#transact},
 * {@link DuroClient#readOnly}): an update body runs again only when its attempt is known not to have committed, a
 * commit of unknown outcome is resent rather than run again, and a read-only body runs again when its snapshot grew
 * too old. It begins the transactions and sleeps between attempts; it sends nothing of its own.
 */
final class TransactionAttempts {
    private final RetryPolicy retryPolicy;
    private final Supplier<Transaction> begin;
    private final Function<ReadConsistency, ReadOnlyTransaction> beginReadOnly;

    TransactionAttempts(
            RetryPolicy retryPolicy,
            Supplier<Transaction> begin,
            Function<ReadConsistency, ReadOnlyTransaction> beginReadOnly) {
        this.retryPolicy = retryPolicy;
        this.begin = begin;
        this.beginReadOnly = beginReadOnly;
    }

    /** {@link DuroClient#transact}. */
    <T> T transact(Function<Transaction, T> body) {
        DuroException last = null;
        for (int attempt = 1; attempt <= retryPolicy.attemptsMax(); attempt++) {
            if (attempt > 1) {
                RetryPolicy.pause(retryPolicy.backoff(attempt));
            }
            Transaction transaction = begin.get();
            try {
                T result = body.apply(transaction);
                commitUntilKnown(transaction);
                return result;
            } catch (TransactionAbortedException e) {
                last = e;
            } catch (SnapshotTooOldException e) {
                if (transaction.commitSent()) {
                    // Servers answer a commit with an abort outcome, never this error, so it came from a read; but
                    // if it ever followed a send, the body must not run again.
                    throw new UnavailableException(
                            "the commit of " + transaction.id() + " was sent, then failed (" + e.getMessage()
                                    + "); it may have committed",
                            true);
                }
                last = e;
            } finally {
                transaction.close();
            }
        }
        throw last;
    }

    /** Commits, resending the same request while the outcome is unknown and another send may learn it. */
    private void commitUntilKnown(Transaction transaction) {
        for (int resend = 0; ; resend++) {
            try {
                transaction.commit();
                return;
            } catch (UnavailableException e) {
                if (!e.outcomeUnknown() || transaction.outcomeLost() || resend >= retryPolicy.commitResendsMax()) {
                    throw e;
                }
            }
            RetryPolicy.pause(retryPolicy.backoff(resend + 2));
        }
    }

    /** {@link DuroClient#readOnly(ReadConsistency, Function)}. */
    <T> T readOnly(ReadConsistency consistency, Function<ReadOnlyTransaction, T> body) {
        for (int attempt = 1; ; attempt++) {
            try {
                return body.apply(beginReadOnly.apply(consistency));
            } catch (SnapshotTooOldException e) {
                if (attempt >= retryPolicy.attemptsMax()) {
                    throw e; // only when reads stall for longer than the cluster keeps versions
                }
            }
        }
    }
}
