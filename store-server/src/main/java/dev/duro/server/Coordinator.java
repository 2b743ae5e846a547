package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Outcome;
import dev.duro.core.OverloadedException;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.node.CommitRequests;
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
import java.util.function.IntToLongFunction;

/**
 * Terminates the transactions clients hand to this node (docs/architecture.md §2, step 3): appends each participant's
 * part to that partition's log through group commit, in parallel (in the leader's entries: {@link LeaderAppends}), and
 * answers with the outcome once this node's replica of a participant finishes the transaction.
 *
 * <p>The coordinator must replicate at least one participant, so the outcome reaches it through its own
 * replica; clients send commits to such a node. A failure to append leaves the outcome unknown: the client is
 * told so and may retry with the same transaction id, which the partitions answer with the first outcome. A
 * partition that no longer retains that outcome says so ({@code Effect.OutcomeUnknown}, the same at every replica
 * at the same log position), and the client gets {@code OUTCOME_UNKNOWN}: final for that id, since every later
 * retry meets the same forgotten outcome.
 *
 * <p>A node whose replicas of the participants are all catching up (more than {@code server.coordinator-lag-max}
 * deliveries behind the newest counter it heard from the partition: restarted, installing a snapshot, a new leader
 * replaying) refuses the commit with {@code NOT_READY} before appending anything: its replica would hold the answer
 * back until it caught up, for as long as the commit timeout, while any caught-up replica answers at once. The
 * client sends the same request to the next coordinator; a participant's leader never lags itself.
 */
final class Coordinator {
    private final ConsensusNode consensus;
    private final OutcomeWaiters waiters;
    private final Duration timeout;
    private final IntToLongFunction newestHeard;
    private final long lagMax;

    /**
     * @param newestHeard the newest counter this node heard from a partition
     * @param lagMax see the class documentation
     */
    Coordinator(
            ConsensusNode consensus,
            OutcomeWaiters waiters,
            Duration timeout,
            IntToLongFunction newestHeard,
            long lagMax) {
        this.consensus = consensus;
        this.waiters = waiters;
        this.timeout = timeout;
        this.newestHeard = newestHeard;
        this.lagMax = lagMax;
    }

    CompletableFuture<ServerReply> commit(CommitTransaction transaction) {
        long requestId = transaction.requestId();
        int partitions = consensus.topology().partitionCount();
        boolean replicated = false;
        boolean current = false;
        StringBuilder lagging = new StringBuilder();
        for (CommitTransaction.Participant participant : transaction.participants()) {
            int partition = participant.partition();
            if (partition >= partitions) {
                return reply(new ErrorReply(
                        requestId,
                        ErrorCode.UNKNOWN_PARTITION,
                        "partition " + partition + " does not exist (the cluster has " + partitions + ")"));
            }
            PartitionStateMachine replica = consensus.replica(partition);
            if (replica != null) {
                replicated = true;
                long at = replica.frontier().snapshotCounter();
                long newest = newestHeard.applyAsLong(partition);
                if (newest - at <= lagMax) {
                    current = true;
                } else {
                    lagging.append(lagging.isEmpty() ? "" : ", ")
                            .append("partition ")
                            .append(partition)
                            .append(" at ")
                            .append(at)
                            .append(" of ")
                            .append(newest);
                }
            }
        }
        if (!replicated) {
            return reply(new ErrorReply(
                    requestId,
                    ErrorCode.UNKNOWN_PARTITION,
                    "node " + consensus.nodeId() + " replicates none of the transaction's partitions; send the"
                            + " commit to a replica of one of them"));
        }
        if (!current) {
            return reply(new ErrorReply(
                    requestId,
                    ErrorCode.NOT_READY,
                    "node " + consensus.nodeId() + " is catching up (" + lagging + "; server.coordinator-lag-max "
                            + lagMax + "): nothing was appended, send the commit to another replica"));
        }
        CompletableFuture<OutcomeWaiters.Answer> outcome;
        try {
            outcome = waiters.register(transaction.tid());
        } catch (OverloadedException e) {
            return reply(new ErrorReply(requestId, ErrorCode.OVERLOADED, e.getMessage()));
        }
        CompletableFuture<ServerReply> result = new CompletableFuture<>();
        List<CommitRequest> requests = CommitRequests.of(transaction);
        for (int i = 0; i < requests.size(); i++) {
            int partition = transaction.participants().get(i).partition();
            try {
                consensus.committer(partition).submit(requests.get(i)).whenComplete((ok, failure) -> {
                    if (failure instanceof OverloadedException overloaded) {
                        // A queue was full, this node's or the leader's (LeaderAppends): nothing was appended.
                        result.complete(new ErrorReply(
                                requestId,
                                ErrorCode.OVERLOADED,
                                overloaded.getMessage() + "; the outcome is unknown: retry the commit with the same"
                                        + " transaction id"));
                    } else if (failure != null) {
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
            Outcome known = failure == null ? finished.outcome() : null;
            if (known != null) {
                result.complete(new OutcomeReply(requestId, known));
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
