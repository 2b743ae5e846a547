package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.SnapshotTooOldException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.annotation.Nullable;

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

    /** {@link DuroClient#transactAsync}: {@link #transact}'s rules, without blocking. */
    <T> CompletableFuture<T> transactAsync(Function<Transaction, ? extends CompletionStage<T>> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attemptAsync(body, 1, null, result);
        return result;
    }

    private <T> void attemptAsync(
            Function<Transaction, ? extends CompletionStage<T>> body,
            int attempt,
            @Nullable DuroException last,
            CompletableFuture<T> result) {
        if (attempt > retryPolicy.attemptsMax()) {
            result.completeExceptionally(last);
            return;
        }
        after(attempt == 1 ? Duration.ZERO : retryPolicy.backoff(attempt)).execute(() -> {
            Transaction transaction = begin.get();
            start(body, transaction)
                    .thenCompose(value -> commitUntilKnownAsync(transaction, 0).thenApply(committed -> value))
                    .whenComplete((value, failure) -> {
                        transaction.close();
                        if (failure == null) {
                            result.complete(value);
                            return;
                        }
                        Throwable cause = unwrap(failure);
                        if (cause instanceof TransactionAbortedException aborted) {
                            attemptAsync(body, attempt + 1, aborted, result);
                        } else if (cause instanceof SnapshotTooOldException tooOld && !transaction.commitSent()) {
                            attemptAsync(body, attempt + 1, tooOld, result);
                        } else if (cause instanceof SnapshotTooOldException tooOld) {
                            result.completeExceptionally(new UnavailableException(
                                    "the commit of " + transaction.id() + " was sent, then failed ("
                                            + tooOld.getMessage() + "); it may have committed",
                                    true));
                        } else {
                            result.completeExceptionally(cause);
                        }
                    });
        });
    }

    /** {@link #commitUntilKnown} without blocking: each resend is a delayed task. */
    private CompletableFuture<Void> commitUntilKnownAsync(Transaction transaction, int resend) {
        CompletableFuture<Void> known = new CompletableFuture<>();
        transaction.commitAsync().whenComplete((committed, failure) -> {
            if (failure == null) {
                known.complete(null);
                return;
            }
            Throwable cause = unwrap(failure);
            if (!(cause instanceof UnavailableException unavailable)
                    || !unavailable.outcomeUnknown()
                    || transaction.outcomeLost()
                    || resend >= retryPolicy.commitResendsMax()) {
                known.completeExceptionally(cause);
                return;
            }
            after(retryPolicy.backoff(resend + 2))
                    .execute(() -> relay(commitUntilKnownAsync(transaction, resend + 1), known));
        });
        return known;
    }

    /** {@link DuroClient#readOnlyAsync(ReadConsistency, Function)}: {@link #readOnly}'s rules, without blocking. */
    <T> CompletableFuture<T> readOnlyAsync(
            ReadConsistency consistency, Function<ReadOnlyTransaction, ? extends CompletionStage<T>> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        readOnlyAttempt(consistency, body, 1, result);
        return result;
    }

    private <T> void readOnlyAttempt(
            ReadConsistency consistency,
            Function<ReadOnlyTransaction, ? extends CompletionStage<T>> body,
            int attempt,
            CompletableFuture<T> result) {
        start(body, beginReadOnly.apply(consistency)).whenComplete((value, failure) -> {
            if (failure == null) {
                result.complete(value);
                return;
            }
            Throwable cause = unwrap(failure);
            if (cause instanceof SnapshotTooOldException && attempt < retryPolicy.attemptsMax()) {
                readOnlyAttempt(consistency, body, attempt + 1, result);
            } else {
                result.completeExceptionally(cause);
            }
        });
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

    private static Executor after(Duration delay) {
        return delay.isZero()
                ? Runnable::run
                : CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static <T> void relay(CompletableFuture<T> from, CompletableFuture<T> to) {
        from.whenComplete((value, failure) -> {
            if (failure == null) {
                to.complete(value);
            } else {
                to.completeExceptionally(unwrap(failure));
            }
        });
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
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
