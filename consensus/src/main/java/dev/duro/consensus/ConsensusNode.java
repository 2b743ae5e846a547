package dev.duro.consensus;

import dev.duro.core.Limits;
import dev.duro.core.engine.EngineSettings;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.ExitUtils;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's consensus: a single Ratis {@link RaftServer} hosting the Raft group of every partition placed on
 * this node (multi-raft), the partition state machines, and a {@link GroupCommitter} per partition for
 * proposing commands.
 *
 * <p>All groups share one storage directory ({@code <dir>/<group-uuid>/...}); at restart the server finds
 * them on disk again ({@code RECOVER}) and only groups missing there are added. The Ratis settings of the server
 * and its clients, and why each is what it is, are in {@link RatisProperties}.
 */
public final class ConsensusNode implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsensusNode.class);
    private final String nodeId;
    private final RaftTopology topology;
    private final ConsensusSettings settings;
    private final RaftServer server;
    private final Map<Integer, PartitionStateMachine> replicas = new ConcurrentHashMap<>();
    private final Map<Integer, GroupCommitter> committers = new ConcurrentHashMap<>();
    /** Separate from the committers' clients: a write stalls after follower reads on a shared client (docs/architecture.md §10). */
    private final Map<Integer, RaftClient> readClients = new ConcurrentHashMap<>();

    private final CommandBatches batches;
    /** Ratis's parameters of every server and client of this node: TLS, when on ({@link RaftTls}). */
    private final Parameters raftParameters;

    private final FreshReplicaWatch freshReplicaWatch;
    /** Handles the answers of entries proposed to a local leader, off its applier thread ({@link LocalLeader}). */
    private final ExecutorService proposals;
    /** Ends the waits of entries lingering for more commands ({@code raft.batch-linger-micros}), every partition's. */
    private final ScheduledExecutorService lingers;

    /** Where committers hand commands for partitions led elsewhere; {@link CommandHandoff#NONE} until it is set. */
    private volatile CommandHandoff handoff = CommandHandoff.NONE;

    /** Hands leaderships to the preferred nodes ({@link #placeLeaders}); idle until then. */
    private final LeaderPlacement placement;

    /** Each partition's group id, derived once: {@link RaftTopology#groupId} hashes the name at every call. */
    private final RaftGroupId[] groupIds;

    private ConsensusNode(
            String nodeId,
            RaftTopology topology,
            ConsensusSettings settings,
            EngineSettings engineSettings,
            Limits limits,
            EffectHandler effects,
            SnapshotFetcher fetcher,
            @Nullable RaftTls tls)
            throws IOException {
        this.nodeId = nodeId;
        this.raftParameters = RaftTls.parameters(tls);
        this.topology = topology;
        this.groupIds = new RaftGroupId[topology.partitionCount()];
        for (int p = 0; p < groupIds.length; p++) {
            groupIds[p] = topology.groupId(p);
        }
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
                    partition, p -> new PartitionStateMachine(p, engineSettings, limits, effects, fetcher));
        };
        this.server = RaftServer.newBuilder()
                .setServerId(RaftTopology.peerId(nodeId))
                .setGroup(RaftGroup.emptyGroup())
                .setProperties(RatisProperties.server(settings))
                .setParameters(raftParameters)
                .setStateMachineRegistry(registry)
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        this.freshReplicaWatch = new FreshReplicaWatch(nodeId, topology, server, raftParameters);
        this.placement = new LeaderPlacement(nodeId, topology, server, this::groupId);
        this.proposals = Executors.newSingleThreadExecutor(LogContext.daemonThreads("proposals", nodeId));
        this.lingers = Executors.newSingleThreadScheduledExecutor(LogContext.daemonThreads("batch-linger", nodeId));
    }

    /**
     * Starts the Raft server and joins the groups of every partition {@code nodeId} replicates.
     *
     * @param fetcher how a replica behind its leader's purged log copies the leader's snapshot
     *
     * @throws IOException if the storage or the port cannot be used
     */
    public static ConsensusNode start(
            String nodeId,
            RaftTopology topology,
            ConsensusSettings settings,
            EngineSettings engineSettings,
            Limits limits,
            EffectHandler effects,
            SnapshotFetcher fetcher)
            throws IOException {
        return start(nodeId, topology, settings, engineSettings, limits, effects, fetcher, null);
    }

    /**
     * {@link #start(String, RaftTopology, ConsensusSettings, EngineSettings, Limits, EffectHandler, SnapshotFetcher)}
     * with the Raft links under mutual TLS when {@code tls} is given (plaintext when null).
     */
    public static ConsensusNode start(
            String nodeId,
            RaftTopology topology,
            ConsensusSettings settings,
            EngineSettings engineSettings,
            Limits limits,
            EffectHandler effects,
            SnapshotFetcher fetcher,
            @Nullable RaftTls tls)
            throws IOException {
        LogContext.Scope context = LogContext.node(nodeId);
        try {
            ConsensusNode node =
                    new ConsensusNode(nodeId, topology, settings, engineSettings, limits, effects, fetcher, tls);
            try {
                node.server.start();
                node.freshReplicaWatch.watch(node.joinGroups());
            } catch (IOException | RuntimeException e) {
                node.close();
                throw e;
            }
            return node;
        } finally {
            context.close();
        }
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

    public String nodeId() {
        return nodeId;
    }

    /** Ratis's own metrics of this node (its groups and its gRPC services), read now. */
    public List<RaftMetrics.Family> raftMetrics() {
        return new RaftMetrics(nodeId, topology).collect();
    }

    public RaftTopology topology() {
        return topology;
    }

    /** The local replica of {@code partition}, or null if this node does not replicate it. */
    public @Nullable PartitionStateMachine replica(int partition) {
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
        LocalLeader local =
                new LocalLeader(server, groupId(partition), () -> replicas.containsKey(partition), proposals);
        ProposalPipeline.Delays delays = (nanos, task) -> lingers.schedule(task, nanos, TimeUnit.NANOSECONDS);
        CommandHandoff toLeader = (target, encoded) -> handoff.handOff(target, encoded);
        return new GroupCommitter(partition, newClient(partition), local, toLeader, batches, settings, delays);
    }

    /**
     * Makes this node's committers hand their commands for partitions led on another node to {@code handoff} (the
     * server's peer links), instead of proposing them through Ratis's client.
     */
    public void handOffCommandsTo(CommandHandoff handoff) {
        this.handoff = handoff;
    }

    /**
     * Makes this node hand the leadership of each partition it leads to the first node of {@code preferred} that
     * replicates it and is ready to lead ({@link LeaderPlacement}); an empty list leaves leadership to elections.
     * Every node of the cluster must be given the same list.
     *
     * @throws IllegalArgumentException if a listed node is no node of the cluster, or is listed twice
     */
    public void placeLeaders(List<String> preferred) {
        placement.prefer(preferred);
    }

    /** Leadership transfers this node has asked for to place leaders on preferred nodes ({@link #placeLeaders}). */
    public long leaderTransfersAsked() {
        return placement.transfersAsked();
    }

    private RaftClient newClient(int partition) {
        RaftPeerId leader = leaderPeer(partition);
        RaftClient.Builder builder = RaftClient.newBuilder()
                .setProperties(RatisProperties.client(settings))
                .setParameters(raftParameters)
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
            return DeliveredCounterReply.counterOf(answer.getMessage());
        });
    }

    /** The committers this node has opened so far (for batching statistics). */
    public List<GroupCommitter> committers() {
        return new ArrayList<>(committers.values());
    }

    /** The node that leads {@code partition} as this node sees it, or null if it knows none. */
    public @Nullable String leaderOf(int partition) {
        RaftPeerId leader = leaderPeer(partition);
        return leader == null ? null : leader.toString();
    }

    private @Nullable RaftPeerId leaderPeer(int partition) {
        try {
            return server.getDivision(groupId(partition)).getInfo().getLeaderId();
        } catch (IOException e) {
            return null;
        }
    }

    /** The state of this node's replica of {@code partition}'s group, or null if this node holds none. */
    public @Nullable GroupStatus groupStatus(int partition) {
        PartitionStateMachine replica = replicas.get(partition);
        if (replica == null) {
            return null;
        }
        try {
            RaftServer.Division division = server.getDivision(groupId(partition));
            RaftPeerId leader = division.getInfo().getLeaderId();
            return new GroupStatus(
                    partition,
                    leader == null ? null : leader.toString(),
                    division.getInfo().isLeader(),
                    division.getInfo().getCurrentTerm(),
                    division.getRaftLog().getLastCommittedIndex(),
                    division.getInfo().getLastAppliedIndex(),
                    replica.leaderChanges());
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code partition}'s group id; one of no partition of this cluster names no group here either. */
    private RaftGroupId groupId(int partition) {
        return partition >= 0 && partition < groupIds.length ? groupIds[partition] : topology.groupId(partition);
    }

    public boolean isLeader(int partition) {
        try {
            return server.getDivision(groupId(partition)).getInfo().isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        freshReplicaWatch.close();
        placement.close();
        for (GroupCommitter committer : committers.values()) {
            committer.close();
        }
        for (RaftClient client : readClients.values()) {
            client.close();
        }
        server.close();
        proposals.shutdown();
        lingers.shutdown(); // a wait it drops belonged to a committer closed above, whose queue is empty
    }
}
