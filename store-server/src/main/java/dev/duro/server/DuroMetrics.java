package dev.duro.server;

import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.GroupCommitter;
import dev.duro.consensus.GroupStatus;
import dev.duro.consensus.PartitionStateMachine;
import dev.duro.consensus.RaftMetrics;
import dev.duro.consensus.SnapshotWritten;
import dev.duro.core.Outcome;
import dev.duro.core.engine.Effect;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.OutcomeReply;
import dev.duro.core.wire.ServerReply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import javax.annotation.Nullable;

/**
 * A node's metrics, in a Prometheus registry that {@link NodeHttp} serves at {@code /metrics} (README, "Metrics"):
 * transactions this node coordinated by partition, class and outcome, commit and read latencies, each local
 * replica's counters and Raft group, group commit, snapshots, the engines' effects, and the JVM. Counting costs a
 * lookup in a map of meters made once and an atomic add per event; gauges are read only when scraped.
 */
final class DuroMetrics implements Closeable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final String nodeId;
    private volatile @Nullable ConsensusNode consensus;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    /** Sources made here for meters that hold theirs weakly. */
    private final List<Object> sources = new ArrayList<>();
    /*
     * The meters counted per event, each made and registered once, then found by their tag values: building and
     * registering one per event allocated a meter id and its tags and looked the registry up, at every commit, read
     * and engine effect (docs/performance.md, "Meters made once").
     */
    private final ConcurrentHashMap<TransactionTags, Counter> transactionCounters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<CommitTags, Timer> commitTimers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Timer> readTimers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Boolean, Counter> cutCounters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<EffectTags, Counter> effectCounters = new ConcurrentHashMap<>();

    DuroMetrics(String nodeId) {
        this.nodeId = nodeId;
        registry.config().commonTags("node", nodeId);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Registers the gauges of every replica and group this node holds; call once the consensus node started. */
    void watch(ConsensusNode consensus) {
        this.consensus = consensus;
        for (int partition : consensus.topology().partitionsOf(consensus.nodeId())) {
            Tags tags = Tags.of("partition", Integer.toString(partition));
            PartitionStateMachine replica = consensus.replica(partition);
            if (replica == null) {
                continue;
            }
            gauge(
                    "duro_replica_snapshot_counter",
                    "SC: the newest snapshot readers may use",
                    tags,
                    replica,
                    r -> r.frontier().snapshotCounter());
            gauge(
                    "duro_replica_pending",
                    "transactions delivered and not finished (globals waiting for votes)",
                    tags,
                    replica,
                    PartitionStateMachine::pendingCount);
            gauge(
                    "duro_replica_designated_voter",
                    "1 while this replica is its partition's voter",
                    tags,
                    replica,
                    r -> r.isDesignatedVoter() ? 1 : 0);
            gauge(
                    "duro_snapshot_last_bytes",
                    "size of the newest snapshot this replica wrote",
                    tags,
                    replica,
                    r -> written(r, w -> w.bytes()));
            gauge(
                    "duro_snapshot_last_write_seconds",
                    "time the newest snapshot took to write, beside applying",
                    tags,
                    replica,
                    r -> written(r, w -> w.writtenNanos() / 1e9));
            gauge(
                    "duro_snapshot_last_freeze_seconds",
                    "time freezing the newest snapshot held the engine's lock",
                    tags,
                    replica,
                    r -> written(r, w -> w.frozenNanos() / 1e9));
            gauge(
                    "duro_snapshot_last_longest_turn_seconds",
                    "the longest a turn of writing the newest snapshot's store held the engine's lock",
                    tags,
                    replica,
                    r -> written(r, w -> w.longestTurnNanos() / 1e9));
            gauge(
                    "duro_replica_head_wait_seconds",
                    "how long the global at the head of the pending queue has waited for votes or its decision (0: none)",
                    tags,
                    replica,
                    r -> r.headWaitingMillis(System.currentTimeMillis()) / 1e3);
            Supplier<GroupStatus> group = () -> consensus.groupStatus(partition);
            gauge("duro_raft_term", "the replica's current Raft term", tags, group, g -> status(g, GroupStatus::term));
            gauge(
                    "duro_raft_commit_index",
                    "the highest log index the replica knows committed",
                    tags,
                    group,
                    g -> status(g, GroupStatus::commitIndex));
            gauge(
                    "duro_raft_applied_index",
                    "the highest log index the replica applied",
                    tags,
                    group,
                    g -> status(g, GroupStatus::appliedIndex));
            gauge(
                    "duro_raft_leader",
                    "1 while this replica leads its group",
                    tags,
                    group,
                    g -> status(g, s -> s.leaderHere() ? 1 : 0));
            FunctionCounter.builder("duro_raft_leader_changes", replica, PartitionStateMachine::leaderChanges)
                    .description("new leaders this replica heard of")
                    .tags(tags)
                    .register(registry);
        }
        for (int partition = 0; partition < consensus.topology().partitionCount(); partition++) {
            Tags tags = Tags.of("partition", Integer.toString(partition));
            int p = partition;
            Supplier<GroupCommitter> committer = () -> committerOf(consensus, p);
            sources.add(committer); // a function counter holds its source weakly
            FunctionCounter.builder("duro_log_entries", committer, c -> count(c, GroupCommitter::entriesSent))
                    .description("log entries this node proposed")
                    .tags(tags)
                    .register(registry);
            FunctionCounter.builder("duro_log_commands", committer, c -> count(c, GroupCommitter::commandsSent))
                    .description("commands in the log entries this node proposed")
                    .tags(tags)
                    .register(registry);
        }
        FunctionCounter.builder("duro_leader_transfers", consensus, ConsensusNode::leaderTransfersAsked)
                .description("leadership transfers this node asked for, to place leaders as cluster.preferred-leaders"
                        + " lists them")
                .register(registry);
    }

    /** Counts a commit this node coordinated, once per participant, and times it. */
    void commitFinished(CommitTransaction transaction, @Nullable ServerReply reply, long startNanos) {
        String kind = transaction.participants().size() > 1 ? "global" : "local";
        String outcome;
        String reason;
        if (reply instanceof OutcomeReply answer) {
            Outcome finished = answer.outcome();
            outcome = finished.committed() ? "committed" : "aborted";
            reason = finished.reason() == null
                    ? ""
                    : lower(finished.reason().kind().name());
        } else if (reply instanceof ErrorReply error) {
            outcome = "error";
            reason = lower(error.code().name());
        } else {
            outcome = "error";
            reason = "internal";
        }
        for (CommitTransaction.Participant participant : transaction.participants()) {
            meter(
                            transactionCounters,
                            new TransactionTags(participant.partition(), kind, outcome, reason),
                            tags -> Counter.builder("duro_transactions")
                                    .description(
                                            "update transactions this node coordinated, counted at each participant")
                                    .tags(
                                            "partition", Integer.toString(tags.partition()),
                                            "class", tags.kind(),
                                            "outcome", tags.outcome(),
                                            "reason", tags.reason())
                                    .register(registry))
                    .increment();
        }
        meter(commitTimers, new CommitTags(kind, outcome), tags -> Timer.builder("duro_commit")
                        .description("time from a commit's arrival to its answer, at the coordinator")
                        .tags("class", tags.kind(), "outcome", tags.outcome())
                        .publishPercentileHistogram()
                        .register(registry))
                .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** Times a read (one key or several of one partition) from its arrival to its answer. */
    void readFinished(String kind, long startNanos) {
        meter(readTimers, kind, tag -> Timer.builder("duro_read")
                        .description("time from a read's arrival to its answer")
                        .tags("kind", tag)
                        .publishPercentileHistogram()
                        .register(registry))
                .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** Counts a consistent cut served to a read-only transaction. */
    void cutServed(boolean linearizable) {
        meter(cutCounters, linearizable, tag -> Counter.builder("duro_cuts_served")
                        .description("consistent cuts served to read-only transactions")
                        .tags("linearizable", Boolean.toString(tag))
                        .register(registry))
                .increment();
    }

    /** Counts the effects an engine produced: votes sent, abort requests, decisions, replies. */
    void effects(int partition, List<Effect> effects) {
        for (int i = 0, n = effects.size(); i < n; i++) {
            meter(effectCounters, new EffectTags(partition, effects.get(i).getClass()), tags -> Counter.builder(
                                    "duro_engine_effects")
                            .description("effects the engines produced, by kind")
                            .tags(
                                    "partition",
                                    Integer.toString(tags.partition()),
                                    "effect",
                                    tags.kind().getSimpleName())
                            .register(registry))
                    .increment();
        }
    }

    /** The meter of {@code key}, made by {@code make} the first time. */
    private static <K, M> M meter(ConcurrentHashMap<K, M> made, K key, Function<K, M> make) {
        M meter = made.get(key);
        return meter != null ? meter : made.computeIfAbsent(key, make);
    }

    private record TransactionTags(int partition, String kind, String outcome, String reason) {}

    private record CommitTags(String kind, String outcome) {}

    private record EffectTags(int partition, Class<?> kind) {}

    /** The metrics in Prometheus's text format: Duro's and the JVM's, then Ratis's (bridged, {@link RaftMetrics}). */
    String scrape() {
        String own = registry.scrape();
        ConsensusNode node = consensus;
        return node == null ? own : own + RaftMetricsText.render(node.raftMetrics(), nodeId);
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }

    /** Registers, per partition, how far the chain of cuts that read-only transactions read trails it. */
    void watch(FrontierPublisher frontiers, int partitions) {
        for (int partition = 0; partition < partitions; partition++) {
            int p = partition;
            gauge(
                    "duro_cut_lag",
                    "transactions of the partition this node heard of that the newest cut does not cover yet",
                    Tags.of("partition", Integer.toString(partition)),
                    frontiers,
                    f -> f.cutLag(p));
        }
    }

    void watch(LeaderAppends appends) {
        sources.add(appends);
        FunctionCounter.builder("duro_leader_appends", appends, LeaderAppends::handedOff)
                .description("commands this node handed to the leader of a partition it does not lead, whose"
                        + " committer queues them into its own entries")
                .register(registry);
        FunctionCounter.builder("duro_leader_append_messages", appends, LeaderAppends::messages)
                .description("the APPEND messages that carried them, each answered once")
                .register(registry);
        FunctionCounter.builder("duro_leader_appends_fallen_back", appends, LeaderAppends::fellBack)
                .description("of those, the ones proposed through Ratis's client after all (no answer, not the"
                        + " leader, entry failed)")
                .register(registry);
        gauge(
                "duro_leader_appends_waiting",
                "handed-off commands waiting for the leader's answer",
                Tags.empty(),
                appends,
                a -> a.waiting());
    }

    private <T> void gauge(String name, String help, Tags tags, T source, ToDoubleFunction<T> value) {
        // Strong: a gauge's source is otherwise held weakly, and a supplier made here would be collected.
        Gauge.builder(name, source, value)
                .description(help)
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }

    private static double written(PartitionStateMachine replica, ToDoubleFunction<SnapshotWritten> field) {
        SnapshotWritten last = replica.lastWritten();
        return last == null ? Double.NaN : field.applyAsDouble(last);
    }

    private static double status(Supplier<GroupStatus> group, ToDoubleFunction<GroupStatus> field) {
        GroupStatus status = group.get();
        return status == null ? Double.NaN : field.applyAsDouble(status);
    }

    private static @Nullable GroupCommitter committerOf(ConsensusNode consensus, int partition) {
        for (GroupCommitter committer : consensus.committers()) {
            if (committer.partition() == partition) {
                return committer;
            }
        }
        return null;
    }

    private static double count(
            Supplier<GroupCommitter> committer, java.util.function.ToLongFunction<GroupCommitter> field) {
        GroupCommitter current = committer.get();
        return current == null ? 0 : field.applyAsLong(current);
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
