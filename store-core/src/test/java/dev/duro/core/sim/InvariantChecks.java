package dev.duro.core.sim;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.engine.EngineStateCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The checks run once a simulation has quiesced: everything finished and was decided everywhere, replicas
 * agree, participants and clients agree, read-only transactions all completed uncertified, and the committed
 * history is serializable.
 */
final class InvariantChecks {
    private final SimulationConfig config;
    private final Cluster cluster;
    private final List<ClientTransaction> transactions;
    private final KeySpace keys;
    private final Violations violations;
    private final Counters counters;

    InvariantChecks(
            SimulationConfig config,
            Cluster cluster,
            List<ClientTransaction> transactions,
            KeySpace keys,
            Violations violations,
            Counters counters) {
        this.config = config;
        this.cluster = cluster;
        this.transactions = transactions;
        this.keys = keys;
        this.violations = violations;
        this.counters = counters;
    }

    void run() {
        checkNothingPending();
        for (PartitionGroup group : cluster.groups()) {
            checkReplicasAgree(group);
        }
        checkEveryTransactionDecided();
        checkReadOnly();
        checkSerializable();
        checkRealTime();
    }

    // ---- check 5: real-time order ----

    /**
     * A transaction reads at least its client's own commits acknowledged before it began (the session guarantee),
     * and a linearizable read-only transaction every commit acknowledged to anyone before it began.
     */
    private void checkRealTime() {
        List<ClientTransaction> acknowledged = new ArrayList<>();
        for (ClientTransaction transaction : transactions) {
            if (transaction.committedAt() >= 0) {
                acknowledged.add(transaction);
            }
        }
        for (ClientTransaction reader : transactions) {
            boolean readAll = reader.plan().declaredReadOnly() ? reader.completedReadOnly() : reader.submitted();
            long[] session = reader.sessionAtBegin();
            if (!readAll || session == null) {
                continue;
            }
            for (Map.Entry<Integer, Long> fixed : reader.snapshots().entrySet()) {
                if (fixed.getValue() < session[fixed.getKey()]) {
                    violations.add(
                            Violation.Kind.REAL_TIME,
                            reader + " read P" + fixed.getKey() + " at " + fixed.getValue()
                                    + ", below its client's own commit there at " + session[fixed.getKey()],
                            List.of(reader.tid()));
                    return;
                }
            }
            if (reader.linearizableMinimum() != null) {
                checkLinearizable(reader, acknowledged);
            }
        }
    }

    private void checkLinearizable(ClientTransaction reader, List<ClientTransaction> acknowledged) {
        for (ClientTransaction writer : acknowledged) {
            if (writer.committedAt() >= reader.beganAt()) {
                continue;
            }
            Outcome committed = writer.clientOutcome();
            for (int partition : committed.participants()) {
                Long snapshot = reader.snapshotAt(partition);
                if (snapshot != null && snapshot < committed.versionAt(partition)) {
                    violations.add(
                            Violation.Kind.REAL_TIME,
                            "linearizable " + reader + " began at " + reader.beganAt() + " ms but read P" + partition
                                    + " at " + snapshot + ", missing " + writer.tid() + " (version "
                                    + committed.versionAt(partition) + ") acknowledged at " + writer.committedAt()
                                    + " ms",
                            List.of(reader.tid(), writer.tid()));
                    return;
                }
            }
        }
    }

    // ---- check 4: termination ----

    private void checkNothingPending() {
        for (PartitionGroup group : cluster.groups()) {
            for (Replica replica : group.replicas()) {
                if (!replica.alive()) {
                    violations.add(Violation.Kind.LIVENESS, replica.name() + " is still down at the end");
                    continue;
                }
                if (replica.delivered() < group.log().size()) {
                    violations.add(
                            Violation.Kind.LIVENESS,
                            replica.name() + " delivered " + replica.delivered() + " of "
                                    + group.log().size() + " log entries");
                }
                if (replica.engine().pendingCount() != 0) {
                    List<TxId> undecided = undecided(group, replica);
                    violations.add(
                            Violation.Kind.LIVENESS,
                            replica.name() + " still has " + replica.engine().pendingCount()
                                    + " PENDING transaction(s); undecided: " + undecided,
                            undecided);
                }
            }
        }
    }

    private static List<TxId> undecided(PartitionGroup group, Replica replica) {
        List<TxId> undecided = new ArrayList<>();
        for (TxId tid : group.log().transactionsInOrder()) {
            if (replica.engine().outcomeOf(tid) == null && undecided.size() < 5) {
                undecided.add(tid);
            }
        }
        return undecided;
    }

    /**
     * Every submitted transaction was decided, identically wherever it was decided, and its client was told that
     * decision or "unknown". Engines forget outcomes, so this reads what the replicas emitted; that two emissions
     * never disagree is checked as they happen ({@link Cluster}).
     */
    private void checkEveryTransactionDecided() {
        for (ClientTransaction transaction : transactions) {
            if (transaction.plan().declaredReadOnly() || !transaction.submitted()) {
                continue;
            }
            Outcome reference = cluster.decision(transaction.tid());
            if (reference == null) {
                violations.add(
                        Violation.Kind.LIVENESS,
                        transaction.tid() + " was never decided anywhere: " + transaction,
                        List.of(transaction.tid()));
                continue;
            }
            for (int partition : transaction.plan().partitions()) {
                if (!transaction.sentTo().contains(partition)
                        && !cluster.group(partition).log().mentions(transaction.tid())) {
                    continue; // never reached that partition's log: decided there by an abort request or not at all
                }
                for (Replica replica : cluster.group(partition).replicas()) {
                    Outcome state = replica.engine().outcomeOf(transaction.tid());
                    Outcome emitted = replica.emittedOutcome(transaction.tid());
                    if (state == null && emitted == null && !replica.restoredFromSnapshot() && !forgets()) {
                        violations.add(
                                Violation.Kind.LIVENESS,
                                transaction.tid() + " was never decided at " + replica.name() + ": " + transaction,
                                List.of(transaction.tid()));
                    }
                }
            }
            count(reference);
            Outcome told = transaction.clientOutcome();
            if (told != null && !sameDecision(reference, told)) {
                violations.add(
                        Violation.Kind.ATOMICITY,
                        "client was told " + Cluster.describe(told) + " but the partitions decided "
                                + Cluster.describe(reference),
                        List.of(transaction.tid()));
            }
        }
    }

    /** Whether engines in this run forget outcomes, so a replica's final state may lack an emitted one. */
    private boolean forgets() {
        return config.tinyWindows();
    }

    /** Same fate and, if committed, the same version at every partition. Abort reasons may differ by partition. */
    private static boolean sameDecision(Outcome one, Outcome other) {
        return Cluster.sameDecision(one, other);
    }

    private void count(Outcome outcome) {
        if (outcome.committed()) {
            counters.increment(outcome.participants().size() > 1 ? "committed global" : "committed local");
        } else {
            counters.increment(
                    "aborted " + Objects.requireNonNull(outcome.reason()).kind());
        }
    }

    // ---- check 3: replicas agree ----

    private void checkReplicasAgree(PartitionGroup group) {
        List<Replica> replicas = group.replicas();
        Replica first = replicas.get(0);
        long digest = EngineStateCodec.contentDigest(first.engine());
        counters.add("final state digest", digest);
        for (Replica replica : replicas.subList(1, replicas.size())) {
            long other = EngineStateCodec.contentDigest(replica.engine());
            if (other != digest) {
                violations.add(
                        Violation.Kind.DIVERGENCE,
                        "P" + group.partition() + " content differs: " + first.name() + " (SC "
                                + first.engine().snapshotCounter() + ") vs " + replica.name() + " (SC "
                                + replica.engine().snapshotCounter() + ")");
            }
        }
        checkOutcomeSequences(group);
        for (Replica replica : replicas) {
            checkEmittedMatchesState(group, replica);
        }
    }

    /** The outcome of every transaction in log order must be the same at every replica. */
    private void checkOutcomeSequences(PartitionGroup group) {
        int position = 0;
        for (TxId tid : group.log().transactionsInOrder()) {
            Outcome expected = group.replicas().get(0).engine().outcomeOf(tid);
            for (Replica replica : group.replicas()) {
                Outcome actual = replica.engine().outcomeOf(tid);
                if (!Objects.equals(expected, actual)) {
                    violations.add(
                            Violation.Kind.DIVERGENCE,
                            "P" + group.partition() + " replicas disagree at transaction #" + position + " of the log ("
                                    + tid + "): " + group.replicas().get(0).name() + " " + show(expected) + ", "
                                    + replica.name() + " " + show(actual),
                            List.of(tid));
                    return;
                }
            }
            position++;
        }
    }

    private static String show(Outcome outcome) {
        return outcome == null ? "undecided" : Cluster.describe(outcome);
    }

    /** What a replica told clients must be what its state says, and one that never skipped the log told all. */
    private void checkEmittedMatchesState(PartitionGroup group, Replica replica) {
        for (Map.Entry<TxId, Outcome> emitted : replica.emittedOutcomes().entrySet()) {
            Outcome state = replica.engine().outcomeOf(emitted.getKey());
            if (state != null && !emitted.getValue().equals(state)) { // null: forgotten since, which is allowed
                violations.add(
                        Violation.Kind.DIVERGENCE,
                        replica.name() + " emitted " + Cluster.describe(emitted.getValue()) + " but its state says "
                                + show(state),
                        List.of(emitted.getKey()));
            }
        }
        if (!replica.restoredFromSnapshot()) {
            for (TxId tid : group.log().transactionsInOrder()) {
                if (replica.emittedOutcome(tid) == null) {
                    violations.add(
                            Violation.Kind.LIVENESS,
                            replica.name() + " never emitted an outcome for " + tid,
                            List.of(tid));
                    return;
                }
            }
        }
    }

    // ---- check 2: read-only transactions ----

    private void checkReadOnly() {
        for (ClientTransaction transaction : transactions) {
            if (!transaction.plan().declaredReadOnly()) {
                continue;
            }
            if (!transaction.completedReadOnly()) {
                violations.add(
                        Violation.Kind.READ_ONLY_ABORTED,
                        "read-only " + transaction + " did not complete",
                        List.of(transaction.tid()));
            }
            if (transaction.readOnlyRestarts() > 0 && !config.versionsCollected()) {
                violations.add(
                        Violation.Kind.READ_ONLY_ABORTED,
                        "read-only " + transaction + " had to restart although no version is collected",
                        List.of(transaction.tid()));
            }
            for (PartitionGroup group : cluster.groups()) {
                if (group.log().mentions(transaction.tid())) {
                    violations.add(
                            Violation.Kind.READ_ONLY_ABORTED,
                            "read-only " + transaction + " reached the log of P" + group.partition(),
                            List.of(transaction.tid()));
                }
            }
        }
    }

    // ---- check 1: serializability ----

    private void checkSerializable() {
        List<TransactionRecord> history = HistoryBuilder.committed(transactions, cluster, keys);
        counters.add("committed history size", history.size());
        SerializabilityChecker.Result result = SerializabilityChecker.check(history);
        if (result.serializable()) {
            return;
        }
        StringBuilder detail = new StringBuilder(result.describe());
        List<TxId> involved = result.cycleTransactions();
        if (!involved.isEmpty()) {
            detail.append("\n  the transactions of the cycle:");
            for (ClientTransaction transaction : transactions) {
                if (involved.contains(transaction.tid())) {
                    Outcome outcome = HistoryBuilder.decided(
                            transaction.tid(), transaction.plan().partitions(), cluster);
                    detail.append("\n    ")
                            .append(transaction)
                            .append("\n      -> ")
                            .append(show(outcome));
                }
            }
        }
        violations.add(Violation.Kind.SERIALIZABILITY, detail.toString(), involved);
    }
}
