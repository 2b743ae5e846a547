package dev.duro.consensus;

import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.ratis.grpc.server.GrpcLogAppender;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ratis's gRPC log appender (one per follower on a leader), which also knows the term of an entry the leader's log
 * has purged, when the follower holds a snapshot that ends right there.
 *
 * <p>An append names the entry before its first one, with its term, and a leader whose log starts at {@code L} can
 * name entry {@code L - 1} only while its own newest snapshot ends there. Ratis notifies a follower whose next entry
 * is {@code L} to install a snapshot whenever it cannot name {@code L - 1}, and the follower answers "already
 * installed" when its snapshot ends at {@code L - 1}, which changes nothing: the two repeat that exchange and no entry
 * flows, until the leader's log start moves, which an idle partition never does. It happens whenever a follower holds
 * a snapshot at exactly {@code L - 1}: the leader's snapshot it fetched when the leader's log started right after it
 * (the leader then took another snapshot before it sent the next entry), or its own. A wiped replica stayed behind for
 * good in {@code LargeSnapshotCatchUpTest}, and a restarted one in {@code TlsRotationTest} (docs/replication.md,
 * "Catching up from a snapshot").
 *
 * <p>So when the follower has said its snapshot ends at {@code L - 1}, the appender names that entry with the term
 * the leader's state machine recorded when it applied it ({@link AppliedTerms}). Entries there are committed, so the
 * term is the one every log has; the follower still checks it against its own snapshot before it appends, as it
 * checks any append. Where the state machine does not know the term, Ratis's behaviour is unchanged.
 */
final class DuroLogAppender extends GrpcLogAppender {
    private static final Logger LOG = LoggerFactory.getLogger(DuroLogAppender.class);

    /** The purged entry named last, so that each is logged once rather than with every append. */
    private final AtomicLong lastNamed = new AtomicLong(RaftLog.INVALID_LOG_INDEX);

    DuroLogAppender(RaftServer.Division server, LeaderState leaderState, FollowerInfo follower) {
        super(server, leaderState, follower);
    }

    @Override
    public @Nullable TermIndex getPrevious(long nextIndex) {
        TermIndex previous = super.getPrevious(nextIndex);
        if (previous != null || nextIndex <= RaftLog.LEAST_VALID_LOG_INDEX) {
            return previous;
        }
        long previousIndex = nextIndex - 1;
        if (getFollower().getSnapshotIndex() != previousIndex
                || !(getServer().getStateMachine() instanceof PartitionStateMachine machine)) {
            return null;
        }
        TermIndex named = machine.appliedTermIndexOf(previousIndex);
        if (named != null && lastNamed.getAndSet(previousIndex) != previousIndex) {
            LOG.info(
                    "{}: the log starts after {}, where the follower's snapshot ends; appends name it with the term"
                            + " this replica applied it in",
                    this,
                    named);
        }
        return named;
    }
}
