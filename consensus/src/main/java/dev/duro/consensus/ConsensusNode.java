package dev.duro.consensus;

import dev.duro.core.Limits;
import dev.duro.core.engine.EngineSettings;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.ExitUtils;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's consensus: a single Ratis {@link RaftServer} hosting the Raft group of every partition placed on
 * this node (multi-raft), the partition state machines, and a {@link GroupCommitter} per partition for
 * proposing commands.
 *
 * <p>All groups share one storage directory ({@code <dir>/<group-uuid>/...}); at restart the server finds
 * them on disk again ({@code RECOVER}) and only groups missing there are added.
 */
public final class ConsensusNode implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsensusNode.class);
    /** Leader-to-follower retries (Ratis multilinear policy: sleep, count pairs): quick at first, then every 0.5 s. */
    private static final String APPENDER_RETRY_POLICY = "1ms,10, 100ms,20, 500ms,100000000";

    private static final long ELECTION_TIMEOUT_MIN_MILLIS = 1_000;
    private static final long ELECTION_TIMEOUT_MAX_MILLIS = 2_000;

    private static final Duration FRESH_REPLICA_WATCH = Duration.ofMinutes(10);
    private static final int FRESH_REPLICA_CHECKS_BEFORE_HANDOVER = 6;

    private final String nodeId;
    private final RaftTopology topology;
    private final ConsensusSettings settings;
    private final RaftServer server;
    private final Map<Integer, PartitionStateMachine> replicas = new ConcurrentHashMap<>();
    private final Map<Integer, GroupCommitter> committers = new ConcurrentHashMap<>();
    /** Separate from the committers' clients: a write stalls after follower reads on a shared client (§10). */
    private final Map<Integer, RaftClient> readClients = new ConcurrentHashMap<>();

    private final CommandBatches batches;
    private final ScheduledExecutorService freshReplicaWatch = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "duro-fresh-replica-watch");
        thread.setDaemon(true);
        return thread;
    });

    private ConsensusNode(
            String nodeId,
            RaftTopology topology,
            ConsensusSettings settings,
            EngineSettings engineSettings,
            Limits limits,
            EffectHandler effects)
            throws IOException {
        this.nodeId = nodeId;
        this.topology = topology;
        this.settings = settings;
        this.batches = new CommandBatches(limits);
        Files.createDirectories(settings.storageDirectory());
        ExitUtils.disableSystemExit(); // gRPC would exit the JVM when a port cannot be bound
        StateMachine.Registry registry = groupId -> {
            if (groupId.equals(RaftGroupId.emptyGroupId())) {
                return new BaseStateMachine(); // the server's placeholder group before the partitions join
            }
            int partition = topology.partitionOf(groupId);
            if (partition < 0) {
                throw new IllegalArgumentException(
                        "group " + groupId + " is no partition of " + topology.clusterName());
            }
            return replicas.computeIfAbsent(
                    partition, p -> new PartitionStateMachine(p, engineSettings, limits, effects));
        };
        this.server = RaftServer.newBuilder()
                .setServerId(RaftTopology.peerId(nodeId))
                .setGroup(RaftGroup.emptyGroup())
                .setProperties(serverProperties(settings))
                .setStateMachineRegistry(registry)
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
    }

    /**
     * Starts the Raft server and joins the groups of every partition {@code nodeId} replicates.
     *
     * @throws IOException if the storage or the port cannot be used
     */
    public static ConsensusNode start(
            String nodeId,
            RaftTopology topology,
            ConsensusSettings settings,
            EngineSettings engineSettings,
            Limits limits,
            EffectHandler effects)
            throws IOException {
        ConsensusNode node = new ConsensusNode(nodeId, topology, settings, engineSettings, limits, effects);
        try {
            node.server.start();
            node.watchFreshReplicas(node.joinGroups());
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    private static RaftProperties serverProperties(ConsensusSettings settings) {
        RaftProperties properties = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(
                properties, List.of(settings.storageDirectory().toFile()));
        RaftServerConfigKeys.setRemovedGroupsDir(
                properties,
                settings.storageDirectory().resolve("removed-groups").toFile());
        GrpcConfigKeys.Server.setHost(properties, settings.raftHost());
        GrpcConfigKeys.Server.setPort(properties, settings.raftPort());
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, settings.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        // Purge (closed segments) after every snapshot, as documented; Ratis's default gap of 1024 entries would
        // keep the log whole when snapshots are taken more often than that.
        RaftServerConfigKeys.Log.setPurgeGap(
                properties, (int) Math.min(Integer.MAX_VALUE, settings.snapshotEveryEntries()));
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf("32MB"));
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(properties, !settings.fsync());
        // A log entry may hold a whole batch of large values.
        GrpcConfigKeys.setMessageSizeMax(properties, SizeInBytes.valueOf(settings.messageBytesMax()));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(
                properties, SizeInBytes.valueOf(settings.appenderBufferBytesMax()));
        // A snapshot larger than one message goes out in several; see ConsensusSettings.snapshotChunkBytesMax.
        RaftServerConfigKeys.Log.Appender.setSnapshotChunkSizeMax(
                properties, SizeInBytes.valueOf(settings.snapshotChunkBytesMax()));
        // How often a leader retries a follower it cannot reach. Ratis's default backs off to one try every 5 s
        // after 30 failures, so a follower restarted after a few seconds down waited up to 5 s before the leader
        // tried it again, and served reads from a stale replica meanwhile; worse, if the leader then died the
        // surviving majority included that lagging follower and could commit nothing until it caught up. A try
        // every half second costs a connection attempt per unreachable follower.
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(properties, APPENDER_RETRY_POLICY);
        RaftServerConfigKeys.Rpc.setRequestTimeout(
                properties, TimeDuration.valueOf(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
        // Read-only requests go through ReadIndex at the leader: linearizable (the default is a leader-local read).
        RaftServerConfigKeys.Read.setOption(properties, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        // Ratis's default election timeout (150-300 ms) makes leaders of busy 2-core machines step down on every
        // GC or JIT pause, and each election stalls the partition. One to two seconds keeps leaders stable; a
        // crashed leader is replaced within about that long.
        RaftServerConfigKeys.Rpc.setTimeoutMin(
                properties, TimeDuration.valueOf(ELECTION_TIMEOUT_MIN_MILLIS, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(
                properties, TimeDuration.valueOf(ELECTION_TIMEOUT_MAX_MILLIS, TimeUnit.MILLISECONDS));
        return properties;
    }

    /** Joins the groups this node replicates; returns the partitions whose storage had to be created. */
    private List<Integer> joinGroups() throws IOException {
        Set<RaftGroupId> present = new HashSet<>();
        server.getGroupIds().forEach(present::add);
        AtomicLong callId = new AtomicLong();
        List<Integer> fresh = new ArrayList<>();
        for (int partition : topology.partitionsOf(nodeId)) {
            RaftGroup group = topology.group(partition);
            if (present.contains(group.getGroupId())) {
                continue;
            }
            RaftClientReply reply = server.groupManagement(GroupManagementRequest.newAdd(
                    ClientId.randomId(), RaftTopology.peerId(nodeId), callId.incrementAndGet(), group));
            if (!reply.isSuccess()) {
                throw new IOException("could not join the group of partition " + partition, reply.getException());
            }
            fresh.add(partition);
        }
        LOG.info("node {} hosts partitions {}", nodeId, topology.partitionsOf(nodeId));
        return fresh;
    }

    /**
     * A replica that starts with empty storage (a new node, or one whose disk was lost or wiped) is filled by its
     * leader, from the log or with a snapshot. But a Ratis leader that knew this replica before remembers how far
     * it had replicated to it (the match index, which it never lowers) and may keep resending from there; the
     * empty replica refuses every time and can stay empty for as long as that leader leads (seen in
     * ProcessClusterFaultTest). A new leader starts without that memory. So if such a replica's log stays empty for a few seconds although it hears from a leader, it asks
     * that leader, once, to hand over to another replica (the partition pauses for about an election).
     */
    private void watchFreshReplicas(List<Integer> fresh) {
        Map<Integer, Integer> emptyWithLeader = new HashMap<>(); // only the watch thread touches it
        for (int partition : fresh) {
            if (topology.replicas().get(partition).size() >= 3) {
                emptyWithLeader.put(partition, 0);
            }
        }
        if (emptyWithLeader.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + FRESH_REPLICA_WATCH.toNanos();
        ScheduledFuture<?> unused = freshReplicaWatch.scheduleWithFixedDelay(
                () -> {
                    for (int partition : List.copyOf(emptyWithLeader.keySet())) {
                        checkFreshReplica(partition, emptyWithLeader);
                    }
                    if (emptyWithLeader.isEmpty() || System.nanoTime() > deadline) {
                        if (!emptyWithLeader.isEmpty()) {
                            LOG.warn("node {}: partitions {} still have empty logs", nodeId, emptyWithLeader.keySet());
                        }
                        freshReplicaWatch.shutdown();
                    }
                },
                500,
                500,
                TimeUnit.MILLISECONDS);
    }

    private void checkFreshReplica(int partition, Map<Integer, Integer> emptyWithLeader) {
        try (RaftClient client = RaftClient.newBuilder()
                .setProperties(new RaftProperties())
                .setRaftGroup(topology.group(partition))
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        3, TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))
                .build()) {
            RaftServer.Division division = server.getDivision(topology.groupId(partition));
            if (division.getRaftLog().getNextIndex() > 0) {
                emptyWithLeader.remove(partition); // receiving the log (or a snapshot): nothing to do
                return;
            }
            RaftPeerId leader = leaderOf(partition, division, client);
            if (leader == null) {
                return;
            }
            int checks = emptyWithLeader.merge(partition, 1, Integer::sum);
            if (checks < FRESH_REPLICA_CHECKS_BEFORE_HANDOVER) {
                return;
            }
            emptyWithLeader.put(partition, 0);
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
                    emptyWithLeader.remove(partition); // once: a new leader knows nothing stale of this replica
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("node {}: checking partition {}'s fresh replica failed: {}", nodeId, partition, e.toString());
        }
    }

    /** The partition's leader, if another replica: as this replica heard, or else as the others say. */
    private RaftPeerId leaderOf(int partition, RaftServer.Division division, RaftClient client) {
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

    public String nodeId() {
        return nodeId;
    }

    public RaftTopology topology() {
        return topology;
    }

    /** The local replica of {@code partition}, or null if this node does not replicate it. */
    public PartitionStateMachine replica(int partition) {
        return replicas.get(partition);
    }

    public List<PartitionStateMachine> replicas() {
        return new ArrayList<>(replicas.values());
    }

    /** Proposes commands into {@code partition}'s log; any node may propose to any partition. */
    public GroupCommitter committer(int partition) {
        return committers.computeIfAbsent(partition, this::newCommitter);
    }

    private GroupCommitter newCommitter(int partition) {
        return new GroupCommitter(partition, newClient(partition), batches, settings);
    }

    private RaftClient newClient(int partition) {
        RaftProperties properties = new RaftProperties();
        RaftServerConfigKeys.Rpc.setRequestTimeout(
                properties, TimeDuration.valueOf(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
        GrpcConfigKeys.setMessageSizeMax(properties, SizeInBytes.valueOf(settings.messageBytesMax()));
        RaftPeerId leader = leaderOf(partition);
        RaftClient.Builder builder = RaftClient.newBuilder()
                .setProperties(properties)
                .setRaftGroup(topology.group(partition))
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        100, TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)));
        if (leader != null) {
            builder.setLeaderId(leader); // spares a NotLeader round trip
        }
        return builder.build();
    }

    /**
     * The number of the newest transaction delivered at {@code partition} ({@code PSC}) as of a Raft ReadIndex
     * taken now: every transaction acknowledged before this call is numbered at or below it (linearizable reads
     * wait until the consistent cut covers it).
     *
     * <p>Asked of this node's own replica when it has one (a follower read: the replica asks its leader for the
     * commit index and answers once it has applied that far), so a leader change costs only the election: the
     * replica learns its new leader from the Raft protocol itself, where a client routed to the old leader first
     * waits for its request to time out. Otherwise asked of the leader.
     */
    public CompletableFuture<Long> linearizableDeliveredCounter(int partition) {
        RaftClient client = readClients.computeIfAbsent(partition, this::newClient);
        CompletableFuture<RaftClientReply> reply = replica(partition) != null
                ? client.async().sendReadOnly(Message.EMPTY, RaftTopology.peerId(nodeId))
                : client.async().sendReadOnly(Message.EMPTY);
        return reply.thenApply(answer -> {
            if (!answer.isSuccess()) {
                throw new IllegalStateException(
                        "ReadIndex at partition " + partition + " failed", answer.getException());
            }
            return PartitionStateMachine.deliveredCounterOf(answer.getMessage());
        });
    }

    /** The committers this node has opened so far (for batching statistics). */
    public List<GroupCommitter> committers() {
        return new ArrayList<>(committers.values());
    }

    /** The current leader of {@code partition} as this node sees it, or null. */
    public RaftPeerId leaderOf(int partition) {
        try {
            return server.getDivision(topology.groupId(partition)).getInfo().getLeaderId();
        } catch (IOException e) {
            return null;
        }
    }

    public boolean isLeader(int partition) {
        try {
            return server.getDivision(topology.groupId(partition)).getInfo().isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        freshReplicaWatch.shutdownNow();
        for (GroupCommitter committer : committers.values()) {
            committer.close();
        }
        for (RaftClient client : readClients.values()) {
            client.close();
        }
        server.close();
    }
}
