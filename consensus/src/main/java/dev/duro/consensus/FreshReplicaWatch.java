package dev.duro.consensus;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets replicas that start with empty storage (a new node, or one whose disk was lost or wiped) filled by their
 * leaders.
 *
 * <p>Such a replica is filled from the log or with a snapshot. But a Ratis leader that knew this replica before
 * remembers how far it had replicated to it (the match index, which it never lowers) and may keep resending from
 * there; the empty replica refuses every time and can stay empty for as long as that leader leads (seen in
 * ProcessClusterFaultTest). A new leader starts without that memory. So if such a replica's log stays empty for a
 * few seconds although it hears from a leader, it asks that leader, once, to hand over to another replica (the
 * partition pauses for about an election).
 *
 * <p>A snapshot arriving is progress too: while one is installed the log stays empty, and a large one takes longer
 * than those few seconds. Handing over then would only make the next leader send it again from the start.
 */
final class FreshReplicaWatch implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(FreshReplicaWatch.class);
    private static final Duration WATCH = Duration.ofMinutes(10);
    private static final long CHECK_PERIOD_MILLIS = 500;
    private static final int CHECKS_BEFORE_HANDOVER = 6;

    private final String nodeId;
    private final RaftTopology topology;
    private final RaftServer server;
    private final Parameters raftParameters;
    private final ScheduledExecutorService executor;

    /** What the watch saw of one empty replica; only the watch thread touches it. */
    private static final class EmptyReplica {
        int checksUnderLeader;
        long snapshotBytesArrived;
    }

    FreshReplicaWatch(String nodeId, RaftTopology topology, RaftServer server, Parameters raftParameters) {
        this.raftParameters = raftParameters;
        this.nodeId = nodeId;
        this.topology = topology;
        this.server = server;
        this.executor =
                Executors.newSingleThreadScheduledExecutor(LogContext.daemonThreads("fresh-replica-watch", nodeId));
    }

    /** Watches the replicas of {@code fresh} partitions, whose storage this node has just created. */
    void watch(List<Integer> fresh) {
        Map<Integer, EmptyReplica> empty = new HashMap<>();
        for (int partition : fresh) {
            if (topology.replicas().get(partition).size() >= 3) {
                empty.put(partition, new EmptyReplica());
            }
        }
        if (empty.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + WATCH.toNanos();
        ScheduledFuture<?> unused = executor.scheduleWithFixedDelay(
                () -> {
                    for (int partition : List.copyOf(empty.keySet())) {
                        check(partition, empty);
                    }
                    if (empty.isEmpty() || System.nanoTime() > deadline) {
                        if (!empty.isEmpty()) {
                            LOG.warn("node {}: partitions {} still have empty logs", nodeId, empty.keySet());
                        }
                        executor.shutdown();
                    }
                },
                CHECK_PERIOD_MILLIS,
                CHECK_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    private void check(int partition, Map<Integer, EmptyReplica> empty) {
        try (RaftClient client = RaftClient.newBuilder()
                .setProperties(new RaftProperties())
                .setParameters(raftParameters)
                .setRaftGroup(topology.group(partition))
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        3, TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))
                .build()) {
            RaftServer.Division division = server.getDivision(topology.groupId(partition));
            if (division.getRaftLog().getNextIndex() > 0) {
                empty.remove(partition); // receiving the log (or installed a snapshot): nothing to do
                return;
            }
            EmptyReplica replica = empty.get(partition);
            if (replica == null) {
                return; // no longer watched
            }
            long arrived = snapshotBytesArrived(division);
            if (arrived != replica.snapshotBytesArrived) {
                replica.snapshotBytesArrived = arrived;
                replica.checksUnderLeader = 0; // a snapshot is arriving: let it finish
                return;
            }
            RaftPeerId leader = leaderOf(partition, division, client);
            if (leader == null || ++replica.checksUnderLeader < CHECKS_BEFORE_HANDOVER) {
                return;
            }
            replica.checksUnderLeader = 0;
            if (askForHandover(partition, leader, client)) {
                empty.remove(partition); // once: a new leader knows nothing stale of this replica
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: checking partition {}'s fresh replica failed: {}", nodeId, partition, e.toString());
        }
    }

    private boolean askForHandover(int partition, RaftPeerId leader, RaftClient client) throws IOException {
        for (String replica : topology.replicas().get(partition)) {
            RaftPeerId candidate = RaftTopology.peerId(replica);
            if (!candidate.equals(leader) && !replica.equals(nodeId)) {
                LOG.warn(
                        "node {}: partition {} log stays empty under leader {}; asking it to hand over to {}",
                        nodeId,
                        partition,
                        leader,
                        replica);
                client.admin().transferLeadership(candidate, leader, 5_000);
                return true;
            }
        }
        return false;
    }

    /** The bytes of the snapshot being fetched from the leader so far ({@link PartitionStateMachine}). */
    private static long snapshotBytesArrived(RaftServer.Division division) {
        File folder = division.getRaftStorage().getStorageDir().getStateMachineDir();
        return sizeOrZero(folder.toPath().resolve(SnapshotFolder.FETCHING_FILE));
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException gone) {
            return 0;
        }
    }

    /** The partition's leader, if another replica: as this replica heard, or else as the others say. */
    private @Nullable RaftPeerId leaderOf(int partition, RaftServer.Division division, RaftClient client) {
        RaftPeerId self = RaftTopology.peerId(nodeId);
        RaftPeerId heard = division.getInfo().getLeaderId();
        if (heard != null) {
            return heard.equals(self) ? null : heard;
        }
        for (String replica : topology.replicas().get(partition)) {
            RaftPeerId peer = RaftTopology.peerId(replica);
            if (peer.equals(self)) {
                continue;
            }
            try {
                GroupInfoReply info = client.getGroupManagementApi(peer).info(topology.groupId(partition));
                if (info.getRoleInfoProto().getRole() == RaftPeerRole.LEADER) {
                    return peer;
                }
            } catch (IOException | RuntimeException unreachable) {
                // ask the next one
            }
        }
        return null;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
