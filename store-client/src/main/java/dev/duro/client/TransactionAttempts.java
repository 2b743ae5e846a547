package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.SnapshotTooOldException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs application bodies in transactions under a {@link RetryPolicy} ({@link DuroClient#transact},
 * {@link DuroClient#readOnly}): an update body runs again only when its attempt is known not to have committed, a
 * commit of unknown outcome is resent rather than run again, and a read-only body runs again when its snapshot grew
 * too old. It begins the transactions and sleeps between attempts; it sends nothing of its own.
 *
 * <p>The asynchronous forms ({@link #transactAsync}, {@link #readOnlyAsync}) follow the same rules without holding a
 * thread: the body composes the transaction's asynchronous reads, each step runs where the previous one completed (a
 * client I/O thread, usually), and a backoff is a delayed task rather than a sleep.
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
            } catch (TransactionAbortedException | SnapshotTooOldException e) {
                last = runAgainAfter(e, transaction);
            } finally {
                transaction.close();
            }
        }
        throw last;
    }

    /**
     * The failure an attempt ended with, when the body may run again because the attempt surely did not commit:
     * certification aborted it, or a snapshot was too old before its commit was sent.
     *
     * @throws UnavailableException (outcome unknown) for a snapshot too old after the commit was sent: servers answer
     *     a commit with an abort outcome, never this error, so it came from a read; but if it ever followed a send,
     *     the body must not run again
     */
    private static DuroException runAgainAfter(DuroException failure, Transaction transaction) {
        if (failure instanceof SnapshotTooOldException && transaction.commitSent()) {
            throw new UnavailableException(
                    "the commit of " + transaction.id() + " was sent, then failed (" + failure.getMessage()
                            + "); it may have committed",
                    true);
        }
        return failure;
    }

    /** Commits, resending the same request while the outcome is unknown and another send may learn it. */
    private void commitUntilKnown(Transaction transaction) {
        long firstSent = System.nanoTime();
        for (int resend = 0; ; resend++) {
            try {
                transaction.commit();
                return;
            } catch (UnavailableException e) {
                if (!mayResend(e, transaction, resend, firstSent)) {
                    throw e;
                }
            }
            RetryPolicy.pause(retryPolicy.backoff(resend + 2));
        }
    }

    /**
     * Whether a commit first sent at {@code firstSent} that failed with {@code failure} after {@code resend} resends
     * is sent again.
     */
    private boolean mayResend(UnavailableException failure, Transaction transaction, int resend, long firstSent) {
        return failure.outcomeUnknown()
                && !transaction.outcomeLost()
                && retryPolicy.mayResendCommit(resend + 1, firstSent);
    }

    /** {@link DuroClient#transactAsync}: {@link #transact}'s rules, without blocking. */
    <T> CompletableFuture<T> transactAsync(Function<Transaction, ? extends CompletionStage<T>> body) {
        return attemptAsync(body, 1);
    }

    private <T> CompletableFuture<T> attemptAsync(
            Function<Transaction, ? extends CompletionStage<T>> body, int attempt) {
        Transaction transaction = begin.get();
        return start(body, transaction)
                .thenCompose(value ->
                        commitUntilKnownAsync(transaction, 0, System.nanoTime()).thenApply(committed -> value))
                .handle((value, failure) -> {
                    transaction.close();
                    if (failure == null) {
                        return CompletableFuture.completedFuture(value);
                    }
                    Throwable cause = Transport.causeOf(failure);
                    if (!(cause instanceof TransactionAbortedException || cause instanceof SnapshotTooOldException)) {
                        return CompletableFuture.<T>failedFuture(cause);
                    }
                    DuroException again = runAgainAfter((DuroException) cause, transaction);
                    return attempt >= retryPolicy.attemptsMax()
                            ? CompletableFuture.<T>failedFuture(again)
                            : after(retryPolicy.backoff(attempt + 1))
                                    .thenCompose(waited -> attemptAsync(body, attempt + 1));
                })
                .thenCompose(next -> next);
    }

    /** {@link #commitUntilKnown} without blocking: each resend follows a delay. */
    private CompletableFuture<Void> commitUntilKnownAsync(Transaction transaction, int resend, long firstSent) {
        return transaction
                .commitAsync()
                .handle((committed, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    Throwable cause = Transport.causeOf(failure);
                    return cause instanceof UnavailableException unavailable
                                    && mayResend(unavailable, transaction, resend, firstSent)
                            ? after(retryPolicy.backoff(resend + 2))
                                    .thenCompose(waited -> commitUntilKnownAsync(transaction, resend + 1, firstSent))
                            : CompletableFuture.<Void>failedFuture(cause);
                })
                .thenCompose(next -> next);
    }

    /** {@link DuroClient#readOnlyAsync(ReadConsistency, Function)}: {@link #readOnly}'s rules, without blocking. */
    <T> CompletableFuture<T> readOnlyAsync(
            ReadConsistency consistency, Function<ReadOnlyTransaction, ? extends CompletionStage<T>> body) {
        return readOnlyAttemptAsync(consistency, body, 1);
    }

    private <T> CompletableFuture<T> readOnlyAttemptAsync(
            ReadConsistency consistency,
            Function<ReadOnlyTransaction, ? extends CompletionStage<T>> body,
            int attempt) {
        return start(body, beginReadOnly.apply(consistency))
                .handle((value, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(value);
                    }
                    Throwable cause = Transport.causeOf(failure);
                    return cause instanceof SnapshotTooOldException && attempt < retryPolicy.attemptsMax()
                            ? readOnlyAttemptAsync(consistency, body, attempt + 1)
                            : CompletableFuture.<T>failedFuture(cause);
                })
                .thenCompose(next -> next);
    }

    /** The body's stage, or a failed one if the body threw before returning it. */
    private static <X, T> CompletableFuture<T> start(Function<X, ? extends CompletionStage<T>> body, X transaction) {
        try {
            CompletionStage<T> stage = body.apply(transaction);
            if (stage == null) {
                return CompletableFuture.failedFuture(
                        new NullPointerException("an asynchronous transaction body returned no stage"));
            }
            return stage.toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Completes after {@code delay}, on a timer rather than a sleeping thread. */
    private static CompletableFuture<Void> after(Duration delay) {
        return delay.isZero()
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(
                        () -> {}, CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS));
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
