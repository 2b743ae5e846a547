package dev.duro.consensus;

import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.ratis.grpc.server.GrpcLogAppender;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.leader.FollowerInfo;
import org.apache.ratis.server.leader.LeaderState;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.raftlog.RaftLogIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ratis's gRPC log appender (one per follower on a leader), which also tells the follower at once that its entries
 * committed, and knows the term of an entry the leader's log has purged when the follower holds a snapshot that ends
 * right there.
 *
 * <p><b>Commits told at once.</b> An append carries the leader's commit index, but Ratis's appender, woken when that
 * index moves, sends nothing unless it has entries to send or a heartbeat is due (every half second here): a follower
 * learnt that an entry committed only from the next entry. A client whose next read went to that follower, with its
 * session token at the commit, waited for it: about 4 ms of a lone client's 8 ms per transaction, and the follower's
 * answers to the commits it forwarded waited alike (docs/replication.md, "Followers learn commits at once"). So when
 * the appender finds nothing to send while the follower's commit index lags the leader's, and no entries are on their
 * way to it (a heartbeat then names no previous entry and carries no commit index), it sends an empty append, as a
 * heartbeat is, once per advance of the commit index ({@link #commitToPush}).
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
    /** The least wait after a pass of the appender that sent nothing. */
    private static final long IDLE_PASS_WAIT_MILLIS = 1;

    /** The purged entry named last, so that each is logged once rather than with every append. */
    private final AtomicLong lastNamed = new AtomicLong(RaftLog.INVALID_LOG_INDEX);
    /** The leader's commit index when an empty append last told it to the follower. */
    private final AtomicLong lastPushed = new AtomicLong(RaftLog.INVALID_LOG_INDEX);
    /** Whether the appender's last pass built nothing to send. */
    private volatile boolean idlePass;

    DuroLogAppender(RaftServer.Division server, LeaderState leaderState, FollowerInfo follower) {
        super(server, leaderState, follower);
    }

    @Override
    public @Nullable AppendEntriesRequestProto newAppendEntriesRequest(long callId, boolean heartbeat)
            throws RaftLogIOException {
        AppendEntriesRequestProto request = super.newAppendEntriesRequest(callId, heartbeat);
        if (request == null && !heartbeat) {
            long committed = getRaftLog().getLastCommittedIndex();
            if (commitToPush(committed, getFollower().getCommitIndex(), lastPushed.get(), hasPendingDataRequests())) {
                lastPushed.set(committed);
                request = super.newAppendEntriesRequest(callId, true);
            }
        }
        idlePass = request == null;
        return request;
    }

    /**
     * Ratis's wait before the appender's next pass, but at least {@value #IDLE_PASS_WAIT_MILLIS} ms after a pass that
     * found nothing to send. With no minimum time between sends ({@link RatisProperties}), Ratis would wait nothing
     * after such a pass whenever it still thinks it should send (a follower whose next entry the leader cannot send,
     * a heartbeat falling due): the pause keeps that from spinning, as Ratis's own 1 ms minimum did.
     */
    @Override
    public long getWaitTimeMs() {
        long wait = super.getWaitTimeMs();
        return idlePass ? Math.max(wait, IDLE_PASS_WAIT_MILLIS) : wait;
    }

    /**
     * Whether an empty append should tell the follower the leader's commit index {@code committed}, when there are no
     * entries to send it: the follower is known to lag it, no empty append told it already, and no entries are on
     * their way (which carry it; an empty append beside them would carry none).
     */
    static boolean commitToPush(long committed, long followerCommitted, long pushed, boolean entriesInFlight) {
        return committed > followerCommitted && committed > pushed && !entriesInFlight;
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
