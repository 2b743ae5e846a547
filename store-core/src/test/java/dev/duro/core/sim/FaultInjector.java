package dev.duro.core.sim;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Breaks things while faults are on: crashes a replica (at most one per partition at a time, a minority) and
 * restarts it later from its last durable snapshot or a peer's, moves the designated voter role (leader
 * changes, with elections that leave a partition without a voter for a while), and stalls replicas (long
 * pauses in delivery). Message loss and duplication live in {@link Network}.
 */
final class FaultInjector {
    private final SimulationConfig config;
    private final Scheduler scheduler;
    private final Dice dice;
    private final Trace trace;
    private final Faults faults;
    private final Cluster cluster;
    private final Counters counters;

    FaultInjector(
            SimulationConfig config,
            Scheduler scheduler,
            Dice dice,
            Trace trace,
            Faults faults,
            Cluster cluster,
            Counters counters) {
        this.config = config;
        this.scheduler = scheduler;
        this.dice = dice;
        this.trace = trace;
        this.faults = faults;
        this.cluster = cluster;
        this.counters = counters;
    }

    void start() {
        scheduleCrash();
        for (PartitionGroup group : cluster.groups()) {
            scheduleLeaderChange(group);
        }
        scheduler.after(dice.millis(50, 300), this::stallSomeReplica);
        scheduler.after(dice.millis(500, 3_000), this::loseSomeQuorum);
    }

    /** Ends the fault phase: restarts every crashed replica, ends stalls, makes sure every partition has a voter. */
    void stopFaults() {
        faults.stop();
        trace.log(() -> "faults stop");
        for (PartitionGroup group : cluster.groups()) {
            for (Replica replica : group.replicas()) {
                replica.stallUntil(0);
                if (!replica.alive()) {
                    restore(replica);
                }
            }
            elect(group);
        }
    }

    // ---- crashes ----

    private void scheduleCrash() {
        long mean = config.replicaCrashIntervalMillis();
        scheduler.after(dice.millis(mean / 2, mean * 3 / 2), this::crashSomeReplica);
    }

    private void crashSomeReplica() {
        if (!faults.active()) {
            return;
        }
        PartitionGroup group = dice.pick(cluster.groups());
        if (group.aliveReplicas().size() == group.replicas().size()) {
            crash(group, dice.pick(group.replicas()));
        }
        scheduleCrash();
    }

    private void crash(PartitionGroup group, Replica replica) {
        counters.increment("replica crashes");
        boolean wasVoter = group.voter() == replica;
        trace.log(() -> replica.name() + " CRASHES" + (wasVoter ? " (it was the voter)" : ""));
        replica.crash();
        if (wasVoter) {
            group.setVoter(null);
            scheduler.after(dice.millis(10, 150), () -> elect(group));
        }
        // Now and then a replica stays down long enough for its partition to outrun every retention window.
        long down = dice.chance(0.2) ? dice.millis(1_000, 4_000) : dice.millis(30, 300);
        scheduler.after(down, () -> restore(replica));
    }

    private void restore(Replica replica) {
        if (replica.alive()) {
            return;
        }
        PartitionGroup group = cluster.group(replica.partition());
        ReplicaSnapshot source = replica.durableSnapshot();
        String from = "its own snapshot";
        List<Replica> peers = group.aliveReplicas();
        if (!peers.isEmpty() && dice.chance(0.3)) {
            Replica peer = dice.pick(peers);
            source = peer.snapshot(cluster.codec()); // state transfer, as when a follower installs a snapshot
            from = "a snapshot of " + peer.name();
            counters.increment("snapshots installed from peers");
        } else if (source == null) {
            from = "nothing (empty state)";
        }
        replica.restore(source, cluster.codec());
        counters.increment("replica restarts");
        String origin = from;
        int position = source == null ? 0 : source.position();
        trace.log(() -> replica.name() + " restarts from " + origin + " at log position " + position);
        cluster.catchUp(replica, dice.millis(1, 20));
    }

    // ---- voters ----

    private void scheduleLeaderChange(PartitionGroup group) {
        long mean = config.leaderChangeIntervalMillis();
        scheduler.after(dice.millis(mean / 2, mean * 3 / 2), () -> changeLeader(group));
    }

    private void changeLeader(PartitionGroup group) {
        if (!faults.active()) {
            return;
        }
        Replica current = group.voter();
        List<Replica> others = new ArrayList<>(group.aliveReplicas());
        others.remove(current);
        if (current != null && !others.isEmpty()) {
            counters.increment("leader changes");
            if (dice.chance(0.3)) {
                trace.log(() -> "P" + group.partition() + " loses its voter " + current.name() + " (election)");
                group.setVoter(null);
                scheduler.after(dice.millis(10, 100), () -> elect(group));
            } else {
                moveVoter(group, dice.pick(others));
            }
        }
        scheduleLeaderChange(group);
    }

    private void elect(PartitionGroup group) {
        Replica current = group.voter();
        if (current != null && current.alive()) {
            return;
        }
        List<Replica> alive = group.aliveReplicas();
        if (alive.isEmpty()) {
            scheduler.after(20, () -> elect(group));
            return;
        }
        moveVoter(group, dice.pick(alive));
    }

    private void moveVoter(PartitionGroup group, @Nullable Replica next) {
        trace.log(() -> "P" + group.partition() + " voter is now " + (next == null ? "nobody" : next.name()));
        group.setVoter(next);
    }

    // ---- stalls ----

    /**
     * A partition loses its quorum for a while: its log commits nothing, so no replica delivers anything (they
     * still receive votes), while the other partitions go on and their globals with it wait.
     */
    private void loseSomeQuorum() {
        if (!faults.active()) {
            return;
        }
        PartitionGroup group = dice.pick(cluster.groups());
        long until = scheduler.now() + dice.millis(300, 2_000);
        trace.log(() -> "P" + group.partition() + " loses its quorum until " + until + " ms");
        counters.increment("quorum losses");
        for (Replica replica : group.replicas()) {
            replica.stallUntil(Math.max(replica.stalledUntil(), until));
        }
        scheduler.after(dice.millis(1_000, 4_000), this::loseSomeQuorum);
    }

    private void stallSomeReplica() {
        if (!faults.active()) {
            return;
        }
        PartitionGroup group = dice.pick(cluster.groups());
        Replica replica = dice.pick(group.replicas());
        if (replica.alive()) {
            long until = scheduler.now() + dice.millis(50, 400);
            trace.log(() -> replica.name() + " stalls until " + until + " ms");
            replica.stallUntil(until);
            counters.increment("replica stalls");
        }
        scheduler.after(dice.millis(100, 500), this::stallSomeReplica);
    }
}
