package dev.duro.core.sim;

import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import java.util.Arrays;

/**
 * Takes each live replica's durable state-machine snapshot now and then (what a restart recovers from), and
 * checks every sixth: restoring one must give back an engine that writes the very same bytes and shows
 * the same content. (Every restart restores one as well.)
 */
final class SnapshotSchedule {
    private final Scheduler scheduler;
    private final Dice dice;
    private final Cluster cluster;
    private final Violations violations;
    private final SimulationConfig config;
    private long taken;

    SnapshotSchedule(SimulationConfig config, Scheduler scheduler, Dice dice, Cluster cluster, Violations violations) {
        this.config = config;
        this.scheduler = scheduler;
        this.dice = dice;
        this.cluster = cluster;
        this.violations = violations;
    }

    void start() {
        for (PartitionGroup group : cluster.groups()) {
            for (Replica replica : group.replicas()) {
                scheduler.after(dice.millis(20, 300), () -> take(replica));
            }
        }
    }

    private void take(Replica replica) {
        if (replica.alive()) {
            ReplicaSnapshot snapshot = replica.snapshot(cluster.codec());
            if (taken++ % 6 == 0) {
                checkRoundTrip(replica, snapshot);
            }
            replica.keepDurable(snapshot);
        }
        scheduler.after(dice.millis(250, 800), () -> take(replica));
    }

    private void checkRoundTrip(Replica replica, ReplicaSnapshot snapshot) {
        EngineStateCodec codec = cluster.codec();
        byte[] written = snapshot.state().unsafeArray();
        PartitionEngine restored = codec.read(written, replica.partition(), config.engine());
        if (!Arrays.equals(written, codec.write(restored))) {
            violations.add(
                    Violation.Kind.SNAPSHOT,
                    replica.name() + ": a restored engine snapshot writes different bytes (position "
                            + snapshot.position() + ")");
        } else if (EngineStateCodec.contentDigest(restored) != EngineStateCodec.contentDigest(replica.engine())) {
            violations.add(
                    Violation.Kind.SNAPSHOT, replica.name() + ": a restored engine snapshot shows different content");
        }
    }
}
