package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.core.OverloadedException;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Terminates the transactions clients hand to this node (DESIGN §2 step 4): appends each participant's part
 * to that partition's log through group commit, in parallel, and answers with the outcome once this node's
 * replica of a participant finishes the transaction.
 *
 * <p>The coordinator must replicate at least one participant, so the outcome reaches it through its own
 * replica; clients send commits to such a node. A failure to append leaves the outcome unknown: the client is
 * told so and may retry with the same transaction id, which the partitions answer with the first outcome. A
 * partition that no longer retains that outcome says so ({@code Effect.OutcomeUnknown}, the same at every replica
 * at the same log position), and the client gets {@code OUTCOME_UNKNOWN}: final for that id, since every later
 * retry meets the same forgotten outcome.
 */
final class Coordinator {
    private final ConsensusNode consensus;
    private final OutcomeWaiters waiters;
    private final Duration timeout;

    Coordinator(ConsensusNode consensus, OutcomeWaiters waiters, Duration timeout) {
        this.consensus = consensus;
        this.waiters = waiters;
        this.timeout = timeout;
    }

    CompletableFuture<ServerReply> commit(CommitTransaction transaction) {
        long requestId = transaction.requestId();
        int partitions = consensus.topology().partitionCount();
        boolean replicated = false;
        for (CommitTransaction.Participant participant : transaction.participants()) {
            if (participant.partition() >= partitions) {
                return reply(new ErrorReply(
                        requestId,
                        ErrorCode.UNKNOWN_PARTITION,
                        "partition " + participant.partition() + " does not exist (the cluster has " + partitions
                                + ")"));
            }
            replicated |= consensus.replica(participant.partition()) != null;
        }
        if (!replicated) {
            return reply(new ErrorReply(
                    requestId,
                    ErrorCode.UNKNOWN_PARTITION,
                    "node " + consensus.nodeId() + " replicates none of the transaction's partitions; send the"
                            + " commit to a replica of one of them"));
        }
        CompletableFuture<OutcomeWaiters.Answer> outcome;
        try {
            outcome = waiters.register(transaction.tid());
        } catch (OverloadedException e) {
            return reply(new ErrorReply(requestId, ErrorCode.OVERLOADED, e.getMessage()));
        }
        CompletableFuture<ServerReply> result = new CompletableFuture<>();
        List<CommitRequest> requests = transaction.toCommitRequests();
        for (int i = 0; i < requests.size(); i++) {
            int partition = transaction.participants().get(i).partition();
            try {
                consensus.committer(partition).submit(requests.get(i)).whenComplete((ok, failure) -> {
                    if (failure != null) {
                        result.complete(new ErrorReply(
                                requestId,
                                ErrorCode.NOT_READY,
                                "could not append to partition " + partition + "'s log (" + failure
                                        + "); the outcome is unknown: retry the commit with the same transaction"
                                        + " id"));
                    }
                });
            } catch (OverloadedException e) {
                result.complete(new ErrorReply(
                        requestId,
                        ErrorCode.OVERLOADED,
                        e.getMessage() + "; the outcome is unknown: retry the commit with the same transaction id"));
            }
        }
        outcome.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((finished, failure) -> {
            waiters.forget(transaction.tid(), outcome);
            if (failure == null && finished.known()) {
                result.complete(new OutcomeReply(requestId, finished.outcome()));
            } else if (failure == null) {
                result.complete(new ErrorReply(
                        requestId,
                        ErrorCode.OUTCOME_UNKNOWN,
                        "transaction " + transaction.tid() + " was delivered before and its outcome is no longer"
                                + " retained (engine.outcomes-retained): it may have committed; this commit was"
                                + " not certified again, and retrying the same id gives the same answer"));
            } else if (failure instanceof TimeoutException) {
                result.complete(new ErrorReply(
                        requestId,
                        ErrorCode.NOT_READY,
                        "no outcome within " + timeout.toMillis() + " ms (server.commit-timeout-millis); the"
                                + " outcome is unknown: retry the commit with the same transaction id"));
            } else {
                result.complete(new ErrorReply(requestId, ErrorCode.INTERNAL, String.valueOf(failure)));
            }
        });
        return result;
    }

    private static CompletableFuture<ServerReply> reply(ServerReply reply) {
        return CompletableFuture.completedFuture(reply);
    }
}
