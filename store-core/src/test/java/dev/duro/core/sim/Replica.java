package dev.duro.core.sim;

import dev.duro.core.Bytes;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineMutants;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One replica of a partition: the engine under test plus what its host process would hold — how far it has
 * delivered the log, whether it is alive and the designated voter, its last durable snapshot. It also remembers
 * every outcome the engine emitted, across restarts, so a replica that contradicts itself is caught.
 */
final class Replica {
    private final int partition;
    private final int index;
    private final EngineSettings settings;
    private final Mutation mutation;

    private PartitionEngine engine;
    private int delivered;
    private boolean alive = true;
    private boolean voter;
    private boolean restoredFromSnapshot;
    private long stalledUntil;
    private @Nullable ReplicaSnapshot durableSnapshot;
    private final Map<TxId, Outcome> emitted = new HashMap<>();

    Replica(int partition, int index, EngineSettings settings, Mutation mutation) {
        this.partition = partition;
        this.index = index;
        this.settings = settings;
        this.mutation = mutation;
        this.engine = mutate(new PartitionEngine(partition, settings));
    }

    private PartitionEngine mutate(PartitionEngine fresh) {
        return switch (mutation) {
            case CERTIFY_FORGOTTEN -> EngineMutants.treatForgottenAsNew(fresh);
            case IGNORE_RANGES -> EngineMutants.ignoreScannedRanges(fresh);
            default -> fresh;
        };
    }

    String name() {
        return "P" + partition + "r" + index;
    }

    int partition() {
        return partition;
    }

    PartitionEngine engine() {
        return engine;
    }

    /** How many batches of the log this replica has delivered. */
    int delivered() {
        return delivered;
    }

    boolean alive() {
        return alive;
    }

    boolean voter() {
        return voter;
    }

    /** The Raft leader's role; the engine acts as the designated voter only once it has caught up. */
    void setVoter(boolean designated) {
        voter = designated;
        engine.setDesignatedVoter(false);
    }

    /**
     * Makes the engine the designated voter if this replica leads and has delivered everything the log holds,
     * as the real host does: a leader still replaying old entries must not propose abort requests or copy
     * decisions it replays.
     */
    void updateDesignated(int logSize) {
        engine.setDesignatedVoter(voter && alive && delivered == logSize);
    }

    List<Effect> deliverNext(List<Command> batch) {
        List<Effect> effects = engine.deliverAll(batch);
        delivered++;
        return effects;
    }

    ReplicaSnapshot snapshot(EngineStateCodec codec) {
        return new ReplicaSnapshot(delivered, Bytes.wrap(codec.write(engine)));
    }

    @Nullable
    ReplicaSnapshot durableSnapshot() {
        return durableSnapshot;
    }

    void keepDurable(ReplicaSnapshot snapshot) {
        durableSnapshot = snapshot;
    }

    /** Loses everything not durable: the engine and the role. */
    void crash() {
        alive = false;
        voter = false;
        stalledUntil = 0;
    }

    /**
     * Restarts from {@code snapshot} (null: from an empty state at log position 0). The caller then replays the
     * log from the snapshot's position.
     */
    void restore(@Nullable ReplicaSnapshot snapshot, EngineStateCodec codec) {
        if (snapshot == null) {
            engine = mutate(new PartitionEngine(partition, settings));
            delivered = 0;
        } else {
            engine = mutate(codec.read(snapshot.state().unsafeArray(), partition, settings));
            delivered = snapshot.position();
            durableSnapshot = snapshot;
            restoredFromSnapshot = true;
        }
        alive = true;
        voter = false;
    }

    /** Whether this replica ever skipped part of the log by restoring a snapshot (so emitted less). */
    boolean restoredFromSnapshot() {
        return restoredFromSnapshot;
    }

    /**
     * Remembers an outcome the engine emitted.
     *
     * @return the earlier outcome for the same transaction if it differs (the replica contradicted itself)
     */
    @Nullable
    Outcome recordEmitted(Outcome outcome) {
        Outcome earlier = emitted.putIfAbsent(outcome.tid(), outcome);
        return earlier == null || earlier.equals(outcome) ? null : earlier;
    }

    @Nullable
    Outcome emittedOutcome(TxId tid) {
        return emitted.get(tid);
    }

    Map<TxId, Outcome> emittedOutcomes() {
        return emitted;
    }

    long stalledUntil() {
        return stalledUntil;
    }

    void stallUntil(long time) {
        stalledUntil = time;
    }
}
