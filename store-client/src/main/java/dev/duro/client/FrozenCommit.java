package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * A transaction's commit request, computed once when its commit starts and sent unchanged from then on: to the
 * next coordinator when one cannot answer, and again on every later {@link Transaction#commit()}. The partitions
 * answer a transaction id they have seen with its first outcome, which makes resending safe, but only if the
 * content is the same: a resend that carried other writes under the same id would be answered with the first
 * outcome, and the application would believe writes committed that never were.
 *
 * <p>One {@link #send} tries the coordinators in order (the first participant's leader, then every replica of a
 * participant) and ends with an {@link Answer}:
 *
 * <ol>
 *   <li>{@link Decided}: a coordinator answered with the outcome, committed or aborted.
 *   <li>{@link OutcomeLost}: a coordinator answered {@link ErrorCode#OUTCOME_UNKNOWN}. The id was delivered
 *       before and its outcome is no longer retained; the answer is the same at every replica and on every
 *       resend, so the other coordinators are not asked.
 *   <li>{@link Unanswered}: every coordinator failed in a way another node might not (unreachable, no leader,
 *       overloaded): the transaction may or may not have committed, and sending again may tell.
 *   <li>{@link Refused}: a coordinator refused the request for a reason any node would give (a limit, a frame
 *       it cannot read, an internal failure).
 * </ol>
 */
final class FrozenCommit {
    private final TxId tid;
    private final List<CommitTransaction.Participant> participants;

    FrozenCommit(TxId tid, List<CommitTransaction.Participant> participants) {
        this.tid = tid;
        this.participants = List.copyOf(participants);
        if (this.participants.isEmpty()) {
            throw new IllegalArgumentException("a commit of " + tid + " needs at least one participant");
        }
    }

    /** The request under {@code requestId}: everything else is the same on every call. */
    CommitTransaction request(long requestId) {
        return new CommitTransaction(requestId, tid, participants);
    }

    /** How one {@link #send} ended. */
    sealed interface Answer permits Decided, OutcomeLost, Unanswered, Refused {}

    record Decided(Outcome outcome) implements Answer {}

    record OutcomeLost(UnavailableException error) implements Answer {}

    record Unanswered(UnavailableException error) implements Answer {}

    record Refused(DuroException error) implements Answer {}

    /**
     * Sends the request to the coordinators in turn until one answers for good. Fails exceptionally only when no
     * node answers with the cluster's layout, before anything is sent.
     */
    CompletableFuture<Answer> send(DuroClient client) {
        return attempt(client, coordinators(client.cluster()), 0, null);
    }

    /** The first participant's leader first (it applies the log first), then every replica of a participant. */
    private List<HostPort> coordinators(ClusterView view) {
        Set<HostPort> ordered = new LinkedHashSet<>();
        HostPort leader = view.leader(participants.get(0).partition());
        if (leader != null) {
            ordered.add(leader);
        }
        for (CommitTransaction.Participant participant : participants) {
            ordered.addAll(view.replicas(participant.partition()));
        }
        return new ArrayList<>(ordered);
    }

    private CompletableFuture<Answer> attempt(
            DuroClient client, List<HostPort> coordinators, int tried, @Nullable DuroException previous) {
        if (tried >= coordinators.size()) {
            return CompletableFuture.completedFuture(new Unanswered(new UnavailableException(
                    "no coordinator could commit " + tid + "; the outcome is unknown and committing again is safe"
                            + (previous == null ? "" : " (last error: " + previous.getMessage() + ")"),
                    true)));
        }
        return client.call(coordinators.get(tried), this::request)
                .handle((reply, failure) -> stepOf(reply, failure))
                .thenCompose(step -> step instanceof TryNext next
                        ? attempt(client, coordinators, tried + 1, next.error())
                        : CompletableFuture.completedFuture(((Done) step).answer()));
    }

    /** What one coordinator's reply (or failure to reply) means for this send. */
    private sealed interface Step permits Done, TryNext {}

    private record Done(Answer answer) implements Step {}

    /** Another coordinator may answer: the reason this one did not. */
    private record TryNext(DuroException error) implements Step {}

    private Step stepOf(@Nullable ServerReply reply, @Nullable Throwable failure) {
        if (failure != null) {
            Throwable cause = Transport.causeOf(failure);
            // A transport failure (unreachable, connection lost, no answer in time) is this node's, not the request's.
            if (cause instanceof UnavailableException unavailable) {
                return new TryNext(unavailable);
            }
            return new Done(new Refused(
                    cause instanceof DuroException duro ? duro : new UnavailableException(cause.toString(), true)));
        }
        if (reply instanceof OutcomeReply outcome) {
            return new Done(new Decided(outcome.outcome()));
        }
        if (reply instanceof ErrorReply error) {
            if (error.code() == ErrorCode.OUTCOME_UNKNOWN) {
                return new Done(new OutcomeLost(outcomeNotRetained(tid, error.message())));
            }
            return anotherCoordinatorMayAnswer(error.code())
                    ? new TryNext(Transport.errorOf(error))
                    : new Done(new Refused(Transport.errorOf(error)));
        }
        return new Done(new Refused(Transport.errorOf(Objects.requireNonNull(reply, "a reply or a failure"))));
    }

    /**
     * Whether another coordinator may answer a commit that this one refused with {@code code}. A switch without a
     * default: a new error code does not compile until it is sorted here.
     */
    static boolean anotherCoordinatorMayAnswer(ErrorCode code) {
        return switch (code) {
                // This node: it replicates none of the participants (the view is stale), has no leader yet or
                // sheds load. The coordinator says whether its own appends may have happened: resending is safe.
            case UNKNOWN_PARTITION, NOT_READY, OVERLOADED -> true;
                // The request: every node would refuse the same content the same way.
            case LIMIT_EXCEEDED, MALFORMED_FRAME, UNSUPPORTED_VERSION -> false;
                // Not answers to a commit (a too-old snapshot ends in an abort outcome); read as a server's failure.
            case SNAPSHOT_TOO_OLD, SNAPSHOT_NOT_READY, INTERNAL -> false;
                // Decided in the partitions' logs, so the same at every replica and on every resend.
            case OUTCOME_UNKNOWN -> false;
                // Every node enforces the same auth rules (docs/auth.md), and answers a connection's identity alike:
                // refused here, refused everywhere.
            case PERMISSION_DENIED, UNAUTHENTICATED, FORBIDDEN -> false;
        };
    }

    static UnavailableException outcomeNotRetained(TxId tid, String serverMessage) {
        return new UnavailableException(
                "transaction " + tid + " was delivered before and may have committed, but its outcome is no"
                        + " longer retained (" + serverMessage + "); this is final for its id: committing it again"
                        + " gets the same answer",
                true);
    }
}
