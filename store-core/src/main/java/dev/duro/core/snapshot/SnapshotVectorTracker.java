package dev.duro.core.snapshot;

import dev.duro.core.TxId;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The vector-of-snapshots service's state at one server (S-DUR §IV-E, DESIGN §6): from the frontiers every
 * partition publishes, the greatest consistent cut below them.
 *
 * <p>A cut {@code V} (one snapshot per partition) is consistent when every committed global transaction is
 * included ({@code c_q(t) <= V[q]}) at all of its partitions or at none. Start from the frontiers and, for any
 * global transaction excluded somewhere, lower {@code V} just below it wherever it is included; repeat until
 * nothing changes. Consistent cuts are closed under component-wise max, so the result is the greatest one
 * below the frontiers, and it only moves forward as frontiers do. A read-only transaction that reads every
 * partition {@code q} at {@code V[q]} sees each global transaction entirely or not at all.
 *
 * <p>Global transactions included everywhere in the current cut can never be excluded again and are
 * forgotten; the work per update is proportional to the global transactions above the cut.
 */
public final class SnapshotVectorTracker {
    private final long[] frontiers;
    private final long[] cut;
    /** Committed global transactions not yet included at all their partitions in {@link #cut}. */
    private final Map<TxId, GlobalCommit> open = new LinkedHashMap<>();

    public SnapshotVectorTracker(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        frontiers = new long[partitions];
        cut = new long[partitions];
    }

    public int partitions() {
        return cut.length;
    }

    /** The greatest consistent cut known: a snapshot per partition. */
    public long[] cut() {
        return cut.clone();
    }

    public long cutAt(int partition) {
        return cut[partition];
    }

    public long frontierAt(int partition) {
        return frontiers[partition];
    }

    /** Global transactions still above the cut somewhere (for metrics and tests of the memory bound). */
    public int openGlobals() {
        return open.size();
    }

    /**
     * Takes in a partition's frontier. The frontier must list every global transaction committed at its
     * partition above the counter of the previous frontier <em>this tracker took in</em> from that partition.
     * So a partition's frontiers must arrive in publication order with none lost (an in-order channel,
     * restarted with a frontier from 0 after any gap); duplicates of frontiers already taken in are harmless,
     * and an older counter never lowers what is known.
     *
     * <p>The tracker cannot detect a gap: a frontier that overtakes its predecessor raises the partition's
     * counter past globals it does not list, and the cut may then include such a global at one partition only,
     * until the missing frontier arrives and the cut would have to move backwards (which fails).
     */
    public void update(Frontier frontier) {
        int partition = frontier.partition();
        if (partition < 0 || partition >= frontiers.length) {
            throw new IllegalArgumentException("unknown partition " + partition + " (of " + frontiers.length + ")");
        }
        for (GlobalCommit global : frontier.globals()) {
            for (int member : global.partitions()) {
                if (member >= frontiers.length) {
                    throw new IllegalArgumentException("global " + global.tid() + " names unknown partition " + member);
                }
            }
        }
        for (GlobalCommit global : frontier.globals()) {
            if (!includedEverywhere(global, cut)) {
                open.putIfAbsent(global.tid(), global);
            }
        }
        frontiers[partition] = Math.max(frontiers[partition], frontier.snapshotCounter());
        recompute();
    }

    private void recompute() {
        long[] candidate = frontiers.clone();
        boolean lowered = true;
        while (lowered) {
            lowered = false;
            for (GlobalCommit global : open.values()) {
                lowered |= excludeIfSplit(global, candidate);
            }
        }
        for (int p = 0; p < cut.length; p++) {
            if (candidate[p] < cut[p]) {
                throw new IllegalStateException("consistent cut moved backwards at partition " + p + ": "
                        + Arrays.toString(cut) + " -> " + Arrays.toString(candidate)
                        + " (a frontier omitted a global commit?)");
            }
        }
        System.arraycopy(candidate, 0, cut, 0, cut.length);
        for (Iterator<GlobalCommit> it = open.values().iterator(); it.hasNext(); ) {
            if (includedEverywhere(it.next(), cut)) {
                it.remove();
            }
        }
    }

    /** If {@code global} is excluded at some partition, lower the others below it. Returns whether it did. */
    private static boolean excludeIfSplit(GlobalCommit global, long[] vector) {
        boolean excludedSomewhere = false;
        for (int i = 0; i < global.partitions().size() && !excludedSomewhere; i++) {
            excludedSomewhere =
                    global.numbers().get(i) > vector[global.partitions().get(i)];
        }
        if (!excludedSomewhere) {
            return false;
        }
        boolean lowered = false;
        for (int i = 0; i < global.partitions().size(); i++) {
            int partition = global.partitions().get(i);
            long number = global.numbers().get(i);
            if (number <= vector[partition]) {
                vector[partition] = number - 1;
                lowered = true;
            }
        }
        return lowered;
    }

    private static boolean includedEverywhere(GlobalCommit global, long[] vector) {
        for (int i = 0; i < global.partitions().size(); i++) {
            if (global.numbers().get(i) > vector[global.partitions().get(i)]) {
                return false;
            }
        }
        return true;
    }
}
