package dev.duro.core.snapshot;

import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
 * <p>Frontiers list only the globals committed since the publisher's previous frontier, so one that overtakes
 * its predecessor says nothing about the globals below its {@code publishedFrom}. The tracker therefore raises
 * a partition's frontier only over contiguous coverage: a frontier that starts above what is known waits (its
 * globals are learned at once, which is always safe) until the frontiers below it arrive.
 *
 * <p>Global transactions included everywhere in the current cut can never be excluded again and are
 * forgotten; the work per update is proportional to the global transactions above the cut.
 */
public final class SnapshotVectorTracker {
    /** The most frontiers per partition kept waiting for a gap to fill; forgetting one only delays the cut. */
    private static final int WAITING_MAX = 64;

    /** Per partition, the counter up to which every committed global transaction is known. */
    private final long[] frontiers;
    /** Per partition, frontiers that arrived above a gap: {@code publishedFrom -> snapshotCounter}. */
    private final List<TreeMap<Long, Long>> waiting = new ArrayList<>();

    private final long[] cut;
    /** Per partition, whether any frontier of it has arrived. */
    private final boolean[] heard;
    /** Committed global transactions not yet included at all their partitions in {@link #cut}. */
    private final Map<TxId, GlobalCommit> open = new LinkedHashMap<>();

    public SnapshotVectorTracker(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        frontiers = new long[partitions];
        cut = new long[partitions];
        heard = new boolean[partitions];
        for (int p = 0; p < partitions; p++) {
            waiting.add(new TreeMap<>());
        }
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

    /**
     * Whether a frontier of every partition has arrived. A tracker that has not heard from some partition keeps
     * it at 0 in its cut, which is consistent with every global transaction the tracker knows of; but a
     * publisher's first frontier lists only the globals it still retains ({@code engine.global-commits-retained}),
     * and an old one it forgot could be included at its partition and excluded at the silent one. Once every
     * partition has been heard, such a forgotten global is committed, hence included, at each of its partitions
     * that forgot it, and listed by any that still retains it. Cuts should be served only from then on.
     */
    public boolean heardFromEveryPartition() {
        for (boolean h : heard) {
            if (!h) {
                return false;
            }
        }
        return true;
    }

    /** The counter up to which every global transaction committed at {@code partition} is known. */
    public long frontierAt(int partition) {
        return frontiers[partition];
    }

    /** Global transactions still above the cut somewhere (for metrics and tests of the memory bound). */
    public int openGlobals() {
        return open.size();
    }

    /**
     * Takes in a partition's frontier. Frontiers may arrive late, twice or out of order; an older counter never
     * lowers what is known. The frontier must list every global transaction committed at its partition in
     * {@code (publishedFrom, snapshotCounter]}.
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
        heard[partition] = true;
        cover(partition, frontier.publishedFrom(), frontier.snapshotCounter());
        recompute();
    }

    /** Raises the partition's frontier over {@code (from, to]} if that connects to what is known. */
    private void cover(int partition, long from, long to) {
        if (to <= frontiers[partition] || to <= from) {
            return;
        }
        TreeMap<Long, Long> ahead = waiting.get(partition);
        if (from > frontiers[partition]) {
            ahead.merge(from, to, Math::max);
            if (ahead.size() > WAITING_MAX) {
                ahead.pollLastEntry();
            }
            return;
        }
        frontiers[partition] = to;
        while (!ahead.isEmpty() && ahead.firstKey() <= frontiers[partition]) {
            frontiers[partition] =
                    Math.max(frontiers[partition], ahead.pollFirstEntry().getValue());
        }
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
