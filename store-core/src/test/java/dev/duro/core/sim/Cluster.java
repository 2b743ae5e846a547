package dev.duro.core.sim;

import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.engine.AbortRequest;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.CutAdvance;
import dev.duro.core.engine.Decision;
import dev.duro.core.engine.Effect;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.Vote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * The partitions and their replicas, and the plumbing between them: batching proposals into log entries,
 * delivering each entry to each replica after that replica's own lag, ticking the engines, and carrying out
 * the engines' effects (votes over the network, abort requests into logs, replies towards clients).
 */
final class Cluster {
    private final SimulationConfig config;
    private final Scheduler scheduler;
    private final Dice dice;
    private final Trace trace;
    private final Network network;
    private final Violations violations;
    private final Counters counters;
    private final Consumer<Outcome> replies;
    private final Consumer<TxId> unknowns;
    /**
     * The first outcome any replica of any participant emitted for each transaction: the ground truth the checks
     * read, since engines forget outcomes (tiny windows) and every later emission must agree with it.
     */
    private final Map<TxId, Outcome> decisions = new HashMap<>();

    private final EngineStateCodec codec = new EngineStateCodec(Limits.DEFAULT);
    private final List<PartitionGroup> groups = new ArrayList<>();
    /** Per partition, the highest PSC any replica has reached (a replica restored from a snapshot may go back). */
    private final long[] highestDelivered;

    Cluster(
            SimulationConfig config,
            Scheduler scheduler,
            Dice dice,
            Trace trace,
            Network network,
            Violations violations,
            Counters counters,
            Consumer<Outcome> replies,
            Consumer<TxId> unknowns) {
        this.config = config;
        this.scheduler = scheduler;
        this.dice = dice;
        this.trace = trace;
        this.network = network;
        this.violations = violations;
        this.counters = counters;
        this.replies = replies;
        this.unknowns = unknowns;
        for (int p = 0; p < config.partitions(); p++) {
            groups.add(new PartitionGroup(p, config.replicas(), config.engine(), config.mutation()));
        }
        this.highestDelivered = new long[config.partitions()];
    }

    List<PartitionGroup> groups() {
        return groups;
    }

    PartitionGroup group(int partition) {
        return groups.get(partition);
    }

    EngineStateCodec codec() {
        return codec;
    }

    /** Elects the first voters and starts every replica's clock. */
    void start() {
        for (PartitionGroup group : groups) {
            group.setVoter(dice.pick(group.replicas()));
            for (Replica replica : group.replicas()) {
                scheduler.after(dice.millis(1, 10), () -> tick(replica));
            }
        }
    }

    // ---- the log ----

    /** Submits a command to a partition's log; it is appended with whatever else arrives in the next few ms. */
    void propose(int partition, Command command) {
        PartitionGroup group = groups.get(partition);
        trace.log(() -> "propose to P" + partition + ": " + describe(command));
        if (group.propose(command)) {
            scheduler.after(dice.millis(0, 3), () -> flush(group));
        }
    }

    private void flush(PartitionGroup group) {
        List<Command> batch = group.takeProposals();
        int index = group.log().append(batch);
        trace.log(() -> "P" + group.partition() + " log[" + index + "] = " + batch.size() + " command(s)");
        for (Replica replica : group.replicas()) {
            scheduleDelivery(replica, index, deliveryLag());
        }
    }

    private long deliveryLag() {
        return dice.chance(0.05) ? dice.millis(20, 120) : dice.millis(0, 10);
    }

    /** Makes {@code replica} deliver the log up to batch {@code upTo} after {@code delay} (or its stall). */
    void scheduleDelivery(Replica replica, int upTo, long delay) {
        long due = Math.max(scheduler.now() + delay, replica.stalledUntil() + delay);
        scheduler.at(due, () -> deliverUpTo(replica, upTo));
    }

    private void deliverUpTo(Replica replica, int upTo) {
        if (!replica.alive()) {
            return; // a restored replica catches up on its own
        }
        if (scheduler.now() < replica.stalledUntil()) {
            scheduleDelivery(replica, upTo, dice.millis(0, 5));
            return;
        }
        PartitionLog log = groups.get(replica.partition()).log();
        while (replica.delivered() <= upTo && replica.delivered() < log.size()) {
            int position = replica.delivered();
            List<Command> batch = log.batch(position);
            trace.log(() -> replica.name() + " delivers log[" + position + "]: " + describeAll(batch));
            carryOut(replica, replica.deliverNext(batch));
            highestDelivered[replica.partition()] = Math.max(
                    highestDelivered[replica.partition()], replica.engine().pendingSnapshotCounter());
        }
    }

    /** Delivers everything appended so far, after {@code delay}. */
    void catchUp(Replica replica, long delay) {
        int last = groups.get(replica.partition()).log().size() - 1;
        if (last >= 0) {
            scheduleDelivery(replica, last, delay);
        }
    }

    private void tick(Replica replica) {
        if (replica.alive()) {
            replica.updateDesignated(groups.get(replica.partition()).log().size());
            carryOut(replica, replica.engine().tick(scheduler.now()));
        }
        scheduler.after(dice.millis(3, 15), () -> tick(replica));
    }

    // ---- effects ----

    void carryOut(Replica from, List<Effect> effects) {
        from.engine().checkInvariants(); // after every step of every replica
        for (Effect effect : effects) {
            if (effect instanceof Effect.Reply reply) {
                recordReply(from, reply.outcome());
            } else if (effect instanceof Effect.SendVote send) {
                sendVote(from, send.vote(), send.to());
            } else if (effect instanceof Effect.ProposeAbort proposal) {
                counters.increment("abort requests proposed");
                trace.log(() -> from.name() + " asks P" + proposal.target() + " to abort "
                        + Trace.name(proposal.request().tid()));
                propose(proposal.target(), proposal.request());
            } else if (effect instanceof Effect.ProposeDecision proposal) {
                counters.increment(
                        proposal.target() == from.partition() ? "decisions proposed" : "decision copies proposed");
                propose(from.partition(), proposal.decision());
            } else if (effect instanceof Effect.OutcomeUnknown unknown) {
                counters.increment("outcome unknown answers");
                trace.log(() -> from.name() + " answers " + Trace.name(unknown.tid()) + ": OUTCOME UNKNOWN");
                unknowns.accept(unknown.tid());
            }
        }
    }

    private void recordReply(Replica from, Outcome outcome) {
        trace.log(() -> from.name() + " decides " + describe(outcome));
        Outcome earlier = from.recordEmitted(outcome);
        if (earlier != null) {
            violations.add(
                    Violation.Kind.DIVERGENCE,
                    from.name() + " emitted " + describe(outcome) + " after emitting " + describe(earlier),
                    List.of(outcome.tid()));
        }
        Outcome first = decisions.putIfAbsent(outcome.tid(), outcome);
        if (first != null && !sameDecision(first, outcome)) {
            violations.add(
                    Violation.Kind.ATOMICITY,
                    from.name() + " decided " + describe(outcome) + " where another replica decided " + describe(first),
                    List.of(outcome.tid()));
        }
        replies.accept(outcome);
    }

    private void sendVote(Replica from, Vote vote, List<Integer> to) {
        counters.increment("votes sent");
        trace.log(() -> from.name() + " sends " + describe(vote) + " to " + to);
        for (int partition : to) {
            for (Replica receiver : groups.get(partition).replicas()) {
                network.send(() -> receiveVote(receiver, vote));
            }
        }
    }

    private void receiveVote(Replica receiver, Vote vote) {
        if (receiver.alive()) {
            trace.log(() -> receiver.name() + " receives " + describe(vote));
            carryOut(receiver, receiver.engine().receiveVote(vote));
        }
    }

    /**
     * Per partition, the highest {@code PSC} any replica has reached: at least the number of every transaction
     * delivered somewhere, as a Raft ReadIndex confirms the newest committed entry.
     */
    long[] deliveredCounters() {
        return highestDelivered.clone();
    }

    /** Same fate and, if committed, the same version at every partition. Abort reasons may differ by partition. */
    static boolean sameDecision(Outcome one, Outcome other) {
        return one.committed() == other.committed() && one.versions().equals(other.versions());
    }

    /** The first outcome any replica emitted for {@code tid}, or null if none did. */
    @Nullable
    Outcome decision(TxId tid) {
        return decisions.get(tid);
    }

    // ---- reads and state ----

    /** A live replica of {@code partition} whose snapshot counter has reached {@code minimum}, or null. */
    @Nullable
    Replica replicaForRead(int partition, long minimum) {
        List<Replica> candidates = new ArrayList<>();
        for (Replica replica : groups.get(partition).aliveReplicas()) {
            if (replica.engine().snapshotCounter() >= minimum) {
                candidates.add(replica);
            }
        }
        return candidates.isEmpty() ? null : dice.pick(candidates);
    }

    /** Every replica alive, the whole log delivered everywhere, nothing left pending or waiting to be appended. */
    boolean quiescent() {
        for (PartitionGroup group : groups) {
            if (group.hasProposals()) {
                return false;
            }
            for (Replica replica : group.replicas()) {
                if (!replica.alive()
                        || replica.delivered() < group.log().size()
                        || replica.engine().pendingCount() > 0) {
                    return false;
                }
            }
        }
        return true;
    }

    int partitions() {
        return config.partitions();
    }

    // ---- trace formatting ----

    static String describe(Command command) {
        if (command instanceof CommitRequest request) {
            return "commit " + Trace.name(request.tid()) + " parts=" + request.participants() + " st="
                    + request.snapshots() + " rs=" + request.readSet() + " ws="
                    + request.writeSet().stream()
                            .map(write -> write.key() + (write.isDelete() ? "=del" : "=" + write.value()))
                            .toList();
        }
        if (command instanceof Decision decision) {
            return "decision " + describe(decision.outcome()) + " logged by P" + decision.loggedBy();
        }
        if (command instanceof CutAdvance advance) {
            return "cut advance " + advance.cut();
        }
        AbortRequest request = (AbortRequest) command;
        return "abort-request " + Trace.name(request.tid()) + " parts=" + request.participants() + " by P"
                + request.requestedBy() + " st=" + request.targetSnapshot();
    }

    static String describeAll(List<Command> batch) {
        return batch.stream().map(Cluster::describe).toList().toString();
    }

    static String describe(Vote vote) {
        return "vote " + Trace.name(vote.tid()) + "@P" + vote.partition() + " "
                + (vote.commit() ? "commit c=" + vote.commitNumber() : "abort (" + vote.reason() + ")")
                + (vote.replyWanted() ? " reply-wanted" : "");
    }

    static String describe(Outcome outcome) {
        return Trace.name(outcome.tid()) + " "
                + (outcome.committed()
                        ? "COMMITTED versions=" + outcome.versions() + " at " + outcome.participants()
                        : "ABORTED (" + outcome.reason() + ")");
    }
}
