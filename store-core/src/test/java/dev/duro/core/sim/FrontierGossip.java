package dev.duro.core.sim;

import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.SnapshotVectorTracker;

/**
 * The vector-of-snapshots service (DESIGN §6): every few milliseconds each partition's voter publishes its
 * frontier since what it published last, and the frontiers reach one tracker after network delays (so they
 * may overtake each other and arrive twice, but are not lost). Read-only transactions take their cut here.
 */
final class FrontierGossip {
    private final Scheduler scheduler;
    private final Dice dice;
    private final Trace trace;
    private final Network network;
    private final Cluster cluster;
    private final Violations violations;
    private final SnapshotVectorTracker tracker;

    FrontierGossip(
            Scheduler scheduler, Dice dice, Trace trace, Network network, Cluster cluster, Violations violations) {
        this.scheduler = scheduler;
        this.dice = dice;
        this.trace = trace;
        this.network = network;
        this.cluster = cluster;
        this.violations = violations;
        this.tracker = new SnapshotVectorTracker(cluster.partitions());
    }

    void start() {
        for (PartitionGroup group : cluster.groups()) {
            scheduler.after(dice.millis(1, 20), () -> publish(group));
        }
    }

    long[] cut() {
        return tracker.cut();
    }

    private void publish(PartitionGroup group) {
        Replica voter = group.voter();
        if (voter != null && voter.alive()) {
            Frontier frontier = voter.engine().frontier(voter.publishedUpTo());
            voter.setPublishedUpTo(frontier.snapshotCounter());
            network.sendWithoutLoss(() -> receive(frontier));
        }
        scheduler.after(dice.millis(5, 20), () -> publish(group));
    }

    private void receive(Frontier frontier) {
        try {
            tracker.update(frontier);
            trace.log(() -> "tracker takes frontier of P" + frontier.partition() + " SC="
                    + frontier.snapshotCounter() + " globals="
                    + frontier.globals().size() + " -> cut "
                    + java.util.Arrays.toString(tracker.cut()));
        } catch (IllegalStateException e) {
            violations.add(Violation.Kind.EXCEPTION, "snapshot-vector tracker: " + e.getMessage());
        }
    }
}
