package dev.duro.core.sim;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Draws the transactions of a run, up to its budget: local and global (2–4 partitions) updates and declared
 * read-only transactions, over hot and cold keys, in the proportions of the run's configuration. Any of them may
 * also scan a prefix of a partition's keys (a predicate read: "the hot keys", "every key here"), while others
 * insert and delete keys inside it.
 */
final class Workload {
    private final SimulationConfig config;
    private final KeySpace keys;
    private final Dice dice;
    /** Per partition of a transaction, the chance it also scans a prefix there (docs/ranges.md). */
    private static final double SCAN_SHARE = 0.3;

    private int remaining;

    Workload(SimulationConfig config, KeySpace keys, Dice dice) {
        this.config = config;
        this.keys = keys;
        this.dice = dice;
        this.remaining = config.transactions();
    }

    boolean exhausted() {
        return remaining == 0;
    }

    /** The next transaction to run, or null when the budget is spent. */
    @Nullable
    TransactionPlan next() {
        if (remaining == 0) {
            return null;
        }
        remaining--;
        if (dice.chance(config.readOnlyShare())) {
            boolean acrossPartitions = config.partitions() > 1 && dice.chance(0.7);
            TransactionPlan.Kind kind =
                    acrossPartitions ? TransactionPlan.Kind.READ_ONLY_AT_CUT : TransactionPlan.Kind.READ_ONLY_LOCAL;
            int spread = acrossPartitions ? dice.between(2, config.partitions()) : 1;
            return new TransactionPlan(kind, steps(spread, false));
        }
        int spread = dice.chance(config.globalShare()) ? dice.between(2, Math.min(4, config.partitions())) : 1;
        boolean writes = !dice.chance(config.undeclaredReadOnlyShare());
        return new TransactionPlan(TransactionPlan.Kind.UPDATE, steps(spread, writes));
    }

    /**
     * The steps at {@code spread} random partitions. An update transaction writes at each partition with the
     * run's write share and only reads at the others, so "read here, write there" shapes — the shape of S-DUR's
     * Figure 1 — are common; at a partition where it writes it writes most of the keys it reads.
     */
    private List<TransactionPlan.Step> steps(int spread, boolean writes) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < config.partitions(); p++) {
            partitions.add(p);
        }
        dice.shuffle(partitions);
        List<TransactionPlan.Step> steps = new ArrayList<>();
        boolean wroteSomewhere = false;
        for (int partition : partitions.subList(0, spread)) {
            boolean writesHere = writes && (spread == 1 || dice.chance(config.writeShare()));
            Set<Bytes> chosen = new HashSet<>();
            int wanted = dice.between(1, config.keysPerPartitionMax());
            for (int attempt = 0; attempt < 10 && chosen.size() < wanted; attempt++) {
                Bytes key = keys.pick(partition, dice.chance(config.hotShare()), dice);
                if (chosen.add(key)) {
                    TransactionPlan.Action action = writesHere ? writeAction() : TransactionPlan.Action.READ;
                    wroteSomewhere |= action != TransactionPlan.Action.READ;
                    steps.add(new TransactionPlan.Step(key, partition, action));
                }
            }
        }
        for (int partition : partitions.subList(0, spread)) {
            if (dice.chance(SCAN_SHARE)) {
                steps.add(new TransactionPlan.Step(
                        keys.scanPrefix(partition, dice), partition, TransactionPlan.Action.SCAN));
            }
        }
        if (writes && !wroteSomewhere) {
            TransactionPlan.Step first = steps.get(0); // a key step: scans were added after them
            steps.set(0, new TransactionPlan.Step(first.key(), first.partition(), TransactionPlan.Action.WRITE));
        }
        dice.shuffle(steps);
        return steps;
    }

    private TransactionPlan.Action writeAction() {
        if (dice.chance(0.25)) {
            return TransactionPlan.Action.READ;
        }
        return dice.chance(0.1) ? TransactionPlan.Action.DELETE : TransactionPlan.Action.WRITE;
    }
}
