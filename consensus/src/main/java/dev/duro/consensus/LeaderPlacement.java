package dev.duro.consensus;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import javax.annotation.Nullable;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each partition's leadership to the node the operator prefers ({@code cluster.preferred-leaders}): every
 * second, a node that leads a partition looks for the first listed node that replicates it; if that is another node,
 * and its replica answers this leader and is caught up, the leader asks Ratis to transfer leadership to it. Where the
 * first listed replica is down or behind, the next listed one is tried; a leader listed before every ready replica,
 * or whose partition names no listed node ready, stays. So leaders gather on the most preferred live node, move on
 * when it stops, and return when it is back and caught up (docs/replication.md, "Where the leaders sit").
 *
 * <p>A transfer makes the leader refuse writes until the transferee is elected or the request times out, so it is
 * asked only of a replica whose log matches the leader's commit index within a few entries and that answered within
 * the last second; an attempt that does not move the leadership is retried after a delay that doubles up to a
 * minute. Ratis's peer priorities are not used: they are stored with each group's configuration, where a changed
 * preference would need a reconfiguration of every group.
 */
final class LeaderPlacement implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderPlacement.class);
    private static final long CHECK_PERIOD_MILLIS = 1_000;
    /** A follower that has not answered its leader for this long is not handed leadership. */
    private static final long RESPONSIVE_MILLIS = 1_000;
    /** How far a follower's log may trail the leader's commit index and still be handed leadership. */
    private static final long BEHIND_ENTRIES_MAX = 8;
    /** How long the leader waits for its transferee's election (and refuses writes meanwhile). */
    private static final long TRANSFER_TIMEOUT_MILLIS = 1_000;

    private static final long RETRY_MILLIS_MIN = 2_000;
    private static final long RETRY_MILLIS_MAX = 60_000;

    private final String nodeId;
    private final RaftTopology topology;
    private final RaftServer server;
    private final IntFunction<RaftGroupId> groupIds;
    private final ScheduledExecutorService executor;
    /** The list of {@link #prefer}; empty until it is given. */
    private volatile List<String> preferred = List.of();
    /** The checks, scheduled once a list is given. */
    @GuardedBy("this")
    private @Nullable ScheduledFuture<?> checks;

    private final AtomicLong transfersAsked = new AtomicLong();
    private final AtomicLong callIds = new AtomicLong();

    /** Per partition, when a transfer may be asked again, and the delay after the next one; only the timer's thread. */
    private final long[] nextAttemptNanos;

    private final long[] retryMillis;

    LeaderPlacement(String nodeId, RaftTopology topology, RaftServer server, IntFunction<RaftGroupId> groupIds) {
        this.nodeId = nodeId;
        this.topology = topology;
        this.server = server;
        this.groupIds = groupIds;
        this.nextAttemptNanos = new long[topology.partitionCount()];
        this.retryMillis = new long[topology.partitionCount()];
        Arrays.fill(retryMillis, RETRY_MILLIS_MIN);
        this.executor =
                Executors.newSingleThreadScheduledExecutor(LogContext.daemonThreads("leader-placement", nodeId));
    }

    /**
     * Places leaders as {@code preferred} lists them from now on; an empty list stops placing them.
     *
     * @throws IllegalArgumentException if a listed node is no node of the cluster, or is listed twice
     */
    synchronized void prefer(List<String> preferred) {
        Set<String> seen = new HashSet<>();
        for (String node : preferred) {
            if (!topology.raftAddresses().containsKey(node)) {
                throw new IllegalArgumentException("preferred leader " + node + " is no node of the cluster");
            }
            if (!seen.add(node)) {
                throw new IllegalArgumentException("preferred leader " + node + " is listed twice");
            }
        }
        this.preferred = List.copyOf(preferred);
        if (!preferred.isEmpty() && checks == null) {
            checks = executor.scheduleWithFixedDelay(
                    this::checkAll, CHECK_PERIOD_MILLIS, CHECK_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** Transfers this node has asked for so far, granted or not. */
    long transfersAsked() {
        return transfersAsked.get();
    }

    /**
     * Where {@code replicas}' leadership belongs, seen from {@code self}, its leader: the first node in {@code
     * preferred} that replicates the partition and is {@code ready}, or null when that is {@code self} or when
     * no listed replica is ready (the leadership stays).
     */
    static @Nullable String target(
            List<String> preferred, List<String> replicas, String self, Predicate<String> ready) {
        for (String node : preferred) {
            if (!replicas.contains(node)) {
                continue;
            }
            if (node.equals(self)) {
                return null;
            }
            if (ready.test(node)) {
                return node;
            }
        }
        return null;
    }

    private void checkAll() {
        List<String> listed = preferred;
        for (int partition : topology.partitionsOf(nodeId)) {
            try {
                check(partition, listed);
            } catch (IOException | RuntimeException e) {
                LOG.warn("node {}: placing partition {}'s leader failed: {}", nodeId, partition, e.toString());
            }
        }
    }

    private void check(int partition, List<String> listed) throws IOException {
        RaftGroupId groupId = groupIds.apply(partition);
        RaftServer.Division division = server.getDivision(groupId);
        DivisionInfo info = division.getInfo();
        long now = System.nanoTime();
        if (!info.isLeader() || !info.isLeaderReady() || now - nextAttemptNanos[partition] < 0) {
            return;
        }
        Set<String> ready = readyFollowers(info, division.getRaftLog().getLastCommittedIndex());
        String target = target(listed, topology.replicas().get(partition), nodeId, ready::contains);
        if (target == null) {
            retryMillis[partition] = RETRY_MILLIS_MIN; // where it belongs, or nowhere better to go
            return;
        }
        LOG.info(
                "node {}: handing partition {}'s leadership to {}, listed before it in cluster.preferred-leaders",
                nodeId,
                partition,
                target);
        transfersAsked.incrementAndGet();
        nextAttemptNanos[partition] = now + TimeUnit.MILLISECONDS.toNanos(retryMillis[partition]);
        retryMillis[partition] = Math.min(2 * retryMillis[partition], RETRY_MILLIS_MAX);
        CompletableFuture<RaftClientReply> reply = server.transferLeadershipAsync(new TransferLeadershipRequest(
                ClientId.randomId(),
                RaftTopology.peerId(nodeId),
                groupId,
                callIds.incrementAndGet(),
                RaftTopology.peerId(target),
                TRANSFER_TIMEOUT_MILLIS));
        reply.whenComplete((answer, error) -> {
            if (error != null || !answer.isSuccess()) {
                LOG.warn(
                        "node {}: partition {}'s leadership did not move to {}: {}",
                        nodeId,
                        partition,
                        target,
                        error != null ? error.toString() : String.valueOf(answer.getException()));
            }
        });
    }

    /** The followers that answered this leader lately and whose logs match its commit index within a few entries. */
    private static Set<String> readyFollowers(DivisionInfo info, long committed) {
        RoleInfoProto role = info.getRoleInfoProto();
        long[] matched = info.getFollowerMatchIndices();
        Set<String> ready = new HashSet<>();
        if (!role.hasLeaderInfo() || matched == null) {
            return ready;
        }
        List<ServerRpcProto> followers = role.getLeaderInfo().getFollowerInfoList();
        if (followers.size() != matched.length) {
            return ready; // the group's configuration changed between the two reads: ask again next time
        }
        for (int i = 0; i < matched.length; i++) {
            ServerRpcProto follower = followers.get(i);
            if (follower.getLastRpcElapsedTimeMs() < RESPONSIVE_MILLIS
                    && matched[i] + BEHIND_ENTRIES_MAX >= committed) {
                ready.add(RaftPeerId.valueOf(follower.getId().getId()).toString());
            }
        }
        return ready;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
