package dev.duro.core.sim;

import dev.duro.core.engine.CutAdvance;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.SnapshotVectorTracker;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The vector-of-snapshots service (docs/window-safety.md): every few milliseconds a replica of each partition
 * publishes its frontier (usually the voter, sometimes a lagging follower, as after a leader change), and the
 * frontiers reach the tracker after network delays, so they overtake each other, arrive twice or, while faults
 * are on, are lost. Now and then the tracker restarts empty, as on a node that restarted. Read-only
 * transactions take their cut here once it covers the client's session.
 */
final class FrontierGossip {
    private final Scheduler scheduler;
    private final Dice dice;
    private final Trace trace;
    private final Network network;
    private final Cluster cluster;
    private final Faults faults;
    private final Counters counters;
    private final Violations violations;
    private SnapshotVectorTracker tracker;
    private long[] lastProposed = new long[0];

    FrontierGossip(
            Scheduler scheduler,
            Dice dice,
            Trace trace,
            Network network,
            Cluster cluster,
            Faults faults,
            Counters counters,
            Violations violations) {
        this.scheduler = scheduler;
        this.dice = dice;
        this.trace = trace;
        this.network = network;
        this.cluster = cluster;
        this.faults = faults;
        this.counters = counters;
        this.violations = violations;
        this.tracker = new SnapshotVectorTracker(cluster.partitions());
    }

    void start() {
        for (PartitionGroup group : cluster.groups()) {
            scheduler.after(dice.millis(1, 20), () -> publish(group));
        }
        scheduler.after(dice.millis(5, 20), this::advanceChain);
        scheduler.after(dice.millis(200, 2_000), this::maybeRestartTracker);
    }

    /**
     * As partition 0's leader node does: proposes the tracker's cut into partition 0's log whenever it moved, so
     * the cuts read-only transactions read form one chain whatever tracker computed them.
     */
    private void advanceChain() {
        long[] cut = tracker.cut();
        if (!java.util.Arrays.equals(cut, lastProposed)) {
            lastProposed = cut;
            List<Long> values = new java.util.ArrayList<>(cut.length);
            for (long snapshot : cut) {
                values.add(snapshot);
            }
            counters.increment("cut advances proposed");
            cluster.propose(0, new CutAdvance(0, values));
        }
        scheduler.after(dice.millis(5, 20), this::advanceChain);
    }

    /**
     * The newest cut of the chain this tracker knows, if it has heard from every partition and the cut covers
     * {@code minimum} (the client's own commits, and a ReadIndex for a linearizable transaction), else null: a
     * server answers {@code NOT_READY} or waits then.
     */
    @Nullable
    long[] cutCovering(long[] session) {
        if (!tracker.heardFromEveryPartition()) {
            return null;
        }
        long[] cut = tracker.chainCut();
        for (int p = 0; p < cut.length; p++) {
            if (cut[p] < session[p]) {
                return null;
            }
        }
        return cut;
    }

    private void publish(PartitionGroup group) {
        Replica voter = group.voter();
        List<Replica> alive = group.aliveReplicas();
        Replica publisher =
                voter != null && voter.alive() && dice.chance(0.8) ? voter : alive.isEmpty() ? null : dice.pick(alive);
        if (publisher != null) {
            Frontier frontier = publisher.engine().frontier();
            if (faults.active() && dice.chance(0.05)) {
                counters.increment("frontiers lost");
            } else {
                network.sendWithoutLoss(() -> receive(frontier));
            }
        }
        scheduler.after(dice.millis(5, 20), () -> publish(group));
    }

    private void maybeRestartTracker() {
        if (!faults.active()) {
            return;
        }
        if (dice.chance(0.3)) {
            counters.increment("tracker restarts");
            trace.log(() -> "the tracker restarts empty");
            tracker = new SnapshotVectorTracker(cluster.partitions());
        }
        scheduler.after(dice.millis(200, 2_000), this::maybeRestartTracker);
    }

    private void receive(Frontier frontier) {
        try {
            tracker.update(frontier);
            trace.log(() -> "tracker takes frontier of P" + frontier.partition() + " SC="
                    + frontier.snapshotCounter() + " dependencies=" + frontier.dependencies() + " -> cut "
                    + Arrays.toString(tracker.cut()));
        } catch (IllegalStateException e) {
            violations.add(Violation.Kind.EXCEPTION, "snapshot-vector tracker: " + e.getMessage());
        }
    }
}
