package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import dev.duro.server.auth.AdminCommands;
import dev.duro.server.auth.AdminException;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.AuthTableCodec;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of the auth record's changes (docs/auth.md, "Where the rules live"), for the {@link AuthRecord}.
 *
 * <p>A change is a read-modify-write of the key in an ordinary transaction, coordinated by this node: read the
 * record at snapshot {@code s}, apply the change, commit the new value with snapshot {@code s}. The write is
 * certified as a read, so a concurrent change that committed after {@code s} aborts this one, which is then retried
 * on a fresh read (bounded). No change is ever lost to another. Only a node with a replica of the record's
 * partition writes.
 */
final class AuthRecordChanges {
    /** The record's logger: its lines read as they did before this class was taken out of it. */
    private static final Logger LOG = LoggerFactory.getLogger(AuthRecord.class);
    /** Attempts of one change's read-modify-write before giving up with NOT_READY. */
    static final int CHANGE_ATTEMPTS_MAX = 20;

    private final ConsensusNode consensus;
    private final Coordinator coordinator;
    private final int partition;
    private final List<String> replicaNodes;
    private final Duration waitMax;
    /** Installs a table this node wrote in the {@link AuthRecord}. */
    private final Consumer<AuthRecord.Versioned> install;

    private final long clientId = new SecureRandom().nextLong();
    private final AtomicLong sequence = new AtomicLong();

    AuthRecordChanges(
            ConsensusNode consensus,
            Coordinator coordinator,
            int partition,
            List<String> replicaNodes,
            Duration waitMax,
            Consumer<AuthRecord.Versioned> install) {
        this.consensus = consensus;
        this.coordinator = coordinator;
        this.partition = partition;
        this.replicaNodes = List.copyOf(replicaNodes);
        this.waitMax = waitMax;
        this.install = install;
    }

    /**
     * Carries out {@code change} by read-modify-write of the record (see the class documentation), installs the
     * table it wrote in the {@link AuthRecord}, and completes with it. Fails with an {@link AdminException} when the change does not apply to
     * the table of the moment, or with a {@link ChangeFailed} carrying the server's error.
     */
    CompletableFuture<AuthTable> change(AdminCommands.Change change) {
        if (consensus.replica(partition) == null) {
            return CompletableFuture.failedFuture(new ChangeFailed(
                    null,
                    "node " + consensus.nodeId()
                            + " holds no replica of partition " + partition
                            + ", which holds the auth record; send admin"
                            + " requests to one of " + replicaNodes));
        }
        return attempt(change, 1);
    }

    /** A change that could not be committed: the coordinator's error reply, or why none was asked. */
    static final class ChangeFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient @Nullable ErrorReply reply;

        ChangeFailed(@Nullable ErrorReply reply, String message) {
            super(message);
            this.reply = reply;
        }

        /** Never null: the message says what went wrong. */
        @Override
        public String getMessage() {
            return Objects.requireNonNull(super.getMessage());
        }
    }

    private CompletableFuture<AuthTable> attempt(AdminCommands.Change change, int attempt) {
        return readAt().thenCompose(read -> {
            // May throw AdminException: then nothing is written.
            AuthTable next = change.apply().apply(AuthRecord.decode(read.value().value()));
            CommitTransaction commit = new CommitTransaction(
                    0,
                    new TxId(clientId, sequence.incrementAndGet()),
                    List.of(new CommitTransaction.Participant(
                            partition,
                            read.snapshot(),
                            List.of(),
                            List.of(Write.put(AuthTable.KEY, Bytes.wrap(AuthTableCodec.encode(next)))))));
            return coordinator.commit(commit).thenCompose(reply -> settle(change, attempt, next, reply));
        });
    }

    private CompletableFuture<AuthTable> settle(
            AdminCommands.Change change, int attempt, AuthTable next, ServerReply reply) {
        if (reply instanceof OutcomeReply outcome && outcome.outcome().committed()) {
            install.accept(new AuthRecord.Versioned(next, outcome.outcome().versionAt(partition)));
            LOG.info("auth record changed: {}", change.description());
            return CompletableFuture.completedFuture(next);
        }
        if (reply instanceof OutcomeReply outcome && attempt < CHANGE_ATTEMPTS_MAX) {
            LOG.debug("auth change {} aborted ({}), attempt {}", change.description(), outcome.outcome(), attempt);
            return attempt(change, attempt + 1); // a concurrent change won: apply ours to its result
        }
        if (reply instanceof ErrorReply error) {
            return CompletableFuture.failedFuture(new ChangeFailed(error, error.message()));
        }
        return CompletableFuture.failedFuture(new ChangeFailed(
                null,
                "the auth record kept changing under " + change.description() + " for " + CHANGE_ATTEMPTS_MAX
                        + " attempts; nothing was written, try again"));
    }

    /** The record at a linearizable snapshot of the local replica, and that snapshot (the change's {@code st}). */
    private CompletableFuture<AuthRecord.LinearizableRead> readAt() {
        PartitionStateMachine replica = Objects.requireNonNull(
                consensus.replica(partition), "changes run on a replica of the auth record's partition");
        return AuthRecord.readLinearizably(consensus, replica, partition, waitMax);
    }
}
