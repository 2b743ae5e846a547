package dev.duro.core.sim;

import dev.duro.core.Bytes;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Takes each live replica's durable state-machine snapshot now and then (what a restart recovers from), and
 * checks every sixth: restoring one must give back an engine that writes the very same bytes and shows
 * the same content. (Every restart restores one as well.)
 *
 * <p>Half of them are taken the way a real replica takes them: the state is frozen at once and written a while
 * later, after the replica went on delivering; a crash or restore meanwhile loses it. A checked one must then be,
 * byte for byte, what writing the state at the freeze would have given.
 */
final class SnapshotSchedule {
    private final Scheduler scheduler;
    private final Dice dice;
    private final Cluster cluster;
    private final Violations violations;
    private final SimulationConfig config;
    private final Counters counters;
    private long taken;

    SnapshotSchedule(
            SimulationConfig config,
            Scheduler scheduler,
            Dice dice,
            Cluster cluster,
            Violations violations,
            Counters counters) {
        this.config = config;
        this.counters = counters;
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
            boolean check = taken++ % 6 == 0;
            if (dice.chance(0.5)) {
                takeInBackground(replica, check);
            } else {
                ReplicaSnapshot snapshot = replica.snapshot(cluster.codec());
                if (check) {
                    checkRoundTrip(replica, snapshot);
                }
                replica.keepDurable(snapshot);
            }
        }
        scheduler.after(dice.millis(250, 800), () -> take(replica));
    }

    private void takeInBackground(Replica replica, boolean check) {
        EngineStateCodec codec = cluster.codec();
        PartitionEngine engine = replica.engine();
        int position = replica.delivered();
        byte[] expected = check ? codec.write(engine) : null;
        EngineStateCodec.Frozen frozen = codec.freeze(engine);
        scheduler.after(dice.millis(1, 400), () -> {
            if (replica.engine() != engine || !replica.alive()) {
                frozen.release(); // the writer died with the replica, or its state was replaced
                counters.increment("snapshots abandoned while written");
                return;
            }
            counters.increment("snapshots written beside delivery");
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            frozen.writeTo(file, Runnable::run);
            frozen.release();
            ReplicaSnapshot snapshot = new ReplicaSnapshot(position, Bytes.wrap(file.toByteArray()));
            if (expected != null && !Arrays.equals(expected, file.toByteArray())) {
                violations.add(
                        Violation.Kind.SNAPSHOT,
                        replica.name() + ": a snapshot frozen at log position " + position + " and written at "
                                + replica.delivered() + " is not the state at the freeze");
            }
            if (position >= durablePosition(replica)) {
                replica.keepDurable(snapshot);
            }
        });
    }

    private static int durablePosition(Replica replica) {
        ReplicaSnapshot durable = replica.durableSnapshot();
        return durable == null ? 0 : durable.position();
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
