package dev.duro.core.sim;

import dev.duro.core.engine.Command;
import dev.duro.core.engine.EngineSettings;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The replicas of one partition, their log, the commands proposed but not yet appended (the leader batches
 * them into one log entry), and which replica is the designated voter (the Raft leader), if any.
 */
final class PartitionGroup {
    private final int partition;
    private final PartitionLog log = new PartitionLog();
    private final List<Replica> replicas = new ArrayList<>();
    private final List<Command> proposals = new ArrayList<>();
    private @Nullable Replica voter;

    PartitionGroup(int partition, int replicaCount, EngineSettings settings, Mutation mutation) {
        this.partition = partition;
        for (int i = 0; i < replicaCount; i++) {
            replicas.add(new Replica(partition, i, settings, mutation));
        }
    }

    int partition() {
        return partition;
    }

    PartitionLog log() {
        return log;
    }

    List<Replica> replicas() {
        return replicas;
    }

    List<Replica> aliveReplicas() {
        List<Replica> alive = new ArrayList<>(replicas.size());
        for (Replica replica : replicas) {
            if (replica.alive()) {
                alive.add(replica);
            }
        }
        return alive;
    }

    @Nullable
    Replica voter() {
        return voter;
    }

    /** Moves the voter role (null: nobody holds it, as during an election). */
    void setVoter(@Nullable Replica next) {
        if (voter != null && voter.alive()) {
            voter.setVoter(false);
        }
        voter = next;
        if (next != null) {
            next.setVoter(true);
        }
    }

    /** Adds a proposal; returns whether it is the first one waiting (so a flush must be scheduled). */
    boolean propose(Command command) {
        proposals.add(command);
        return proposals.size() == 1;
    }

    List<Command> takeProposals() {
        List<Command> batch = List.copyOf(proposals);
        proposals.clear();
        return batch;
    }

    boolean hasProposals() {
        return !proposals.isEmpty();
    }
}
