package dev.duro.core.snapshot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The vector-of-snapshots service's state at one server (S-DUR §IV-E, docs/window-safety.md): from the frontiers
 * every partition publishes, the greatest consistent cut it can prove.
 *
 * <p>A cut {@code V} (one snapshot per partition) is consistent when every committed global transaction is
 * included ({@code c_q(t) <= V[q]}) at all of its partitions or at none. A {@link Frontier} of partition
 * {@code p} at counter {@code s} carries {@code dep}: for every other partition {@code q}, the highest number at
 * {@code q} of any global committed at {@code p} up to {@code s}. If every partition's chosen point satisfies
 * {@code dep <= V}, every global included somewhere is included at all its partitions, so {@code V} is
 * consistent.
 *
 * <p>The tracker keeps, per partition, the points ({@code s}, {@code dep}) it has heard of above its cut, plus
 * the point at the cut. It starts from the newest point of every partition and lowers a partition to its
 * newest point whose dependencies the others cover, until nothing changes. The point at the current cut always
 * qualifies, so the cut never moves backwards; consistent cuts are closed under component-wise max, so the
 * result is the greatest consistent cut over the known points. Nothing here depends on how many transactions a
 * publisher retains: a frontier may be lost, repeated or reordered, and a fresh tracker starts at the empty cut
 * (every partition at 0, consistent by definition) and is safe from its first frontier (docs/window-safety.md).
 */
public final class SnapshotVectorTracker {
    /**
     * Points kept per partition above its cut. Thinning them when more arrive only makes the cut coarser: the
     * newest point and the point at the cut always stay.
     */
    static final int POINTS_MAX = 64;

    private final int partitions;
    /** Per partition: counter → dependency vector (length {@link #partitions}), the cut's point included. */
    private final List<TreeMap<Long, long[]>> points = new ArrayList<>();

    private final long[] cut;
    /** The newest cut of the chain (docs/window-safety.md) any frontier carried: what read-only transactions read. */
    private final long[] chainCut;
    /** Per partition, whether any frontier of it has arrived. */
    private final boolean[] heard;

    public SnapshotVectorTracker(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        this.partitions = partitions;
        cut = new long[partitions];
        chainCut = new long[partitions];
        heard = new boolean[partitions];
        for (int p = 0; p < partitions; p++) {
            TreeMap<Long, long[]> known = new TreeMap<>();
            known.put(0L, new long[partitions]);
            points.add(known);
        }
    }

    public int partitions() {
        return partitions;
    }

    /** The greatest consistent cut known: a snapshot per partition. */
    public long[] cut() {
        return cut.clone();
    }

    public long cutAt(int partition) {
        return cut[partition];
    }

    /**
     * The newest cut of the chain this tracker has heard of: the cut partition 0's log holds (a frontier of it
     * carries it). Its cuts only grow along that log, so any two cuts of the chain, wherever they were learnt, are
     * comparable, and read-only transactions that read them never see two independent commits in opposite orders.
     * {@link #cut()} is what the chain is fed with.
     */
    public long[] chainCut() {
        return chainCut.clone();
    }

    /**
     * Whether a frontier of every partition has arrived. Every cut is consistent from the start (an unheard
     * partition holds the others at points that do not depend on it), but a tracker that has not heard from some
     * partition serves a cut far behind the cluster; servers answer {@code NOT_READY} until then.
     */
    public boolean heardFromEveryPartition() {
        for (boolean h : heard) {
            if (!h) {
                return false;
            }
        }
        return true;
    }

    /** The newest counter heard from {@code partition}. */
    public long frontierAt(int partition) {
        return points.get(partition).lastKey();
    }

    /** Points held above the cut, over all partitions (for metrics and tests of the memory bound). */
    public int pointsAboveCut() {
        int count = 0;
        for (TreeMap<Long, long[]> known : points) {
            count += known.size() - 1;
        }
        return count;
    }

    /** Takes in a partition's frontier. Frontiers may arrive late, twice or out of order, from any replica. */
    public void update(Frontier frontier) {
        int partition = frontier.partition();
        if (partition >= partitions) {
            throw new IllegalArgumentException("unknown partition " + partition + " (of " + partitions + ")");
        }
        if (frontier.dependencies().size() > partitions) {
            for (int q = partitions; q < frontier.dependencies().size(); q++) {
                if (frontier.dependencies().get(q) != 0) {
                    throw new IllegalArgumentException(
                            "frontier of partition " + partition + " depends on unknown partition " + q);
                }
            }
        }
        heard[partition] = true;
        List<Long> floor = frontier.cutFloor();
        if (floor.size() > partitions) {
            throw new IllegalArgumentException("frontier of partition " + partition + " carries a cut of "
                    + floor.size() + " partitions (of " + partitions + ")");
        }
        if (dominates(floor, chainCut)) {
            for (int q = 0; q < floor.size(); q++) {
                chainCut[q] = floor.get(q);
            }
        }
        long counter = frontier.snapshotCounter();
        TreeMap<Long, long[]> known = points.get(partition);
        if (counter <= cut[partition] || known.containsKey(counter)) {
            return;
        }
        long[] dependencies = new long[partitions];
        for (int q = 0; q < partitions; q++) {
            dependencies[q] = frontier.dependencyOn(q);
        }
        known.put(counter, dependencies);
        if (known.size() > POINTS_MAX + 1) {
            thin(known);
        }
        recompute();
    }

    /** Whether {@code floor} is at least {@code current} everywhere (a later cut of the chain). */
    private static boolean dominates(List<Long> floor, long[] current) {
        for (int q = 0; q < current.length; q++) {
            long value = q < floor.size() ? floor.get(q) : 0;
            if (value < current[q]) {
                return false;
            }
        }
        return !floor.isEmpty();
    }

    /** Drops the point closest to its lower neighbour, never the cut's point or the newest. */
    private void thin(TreeMap<Long, long[]> known) {
        Long closest = null;
        long gapMin = Long.MAX_VALUE;
        Long previous = null;
        for (Long counter : known.keySet()) {
            if (previous != null && !counter.equals(known.lastKey()) && counter - previous < gapMin) {
                gapMin = counter - previous;
                closest = counter;
            }
            previous = counter;
        }
        known.remove(closest);
    }

    private void recompute() {
        long[] candidate = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            candidate[p] = points.get(p).lastKey();
        }
        boolean lowered = true;
        while (lowered) {
            lowered = false;
            for (int p = 0; p < partitions; p++) {
                TreeMap<Long, long[]> known = points.get(p);
                if (covered(Objects.requireNonNull(known.get(candidate[p]), "a known point"), p, candidate)) {
                    continue;
                }
                Map.Entry<Long, long[]> lower = known.lowerEntry(candidate[p]);
                while (!covered(lower.getValue(), p, candidate)) {
                    lower = known.lowerEntry(lower.getKey());
                }
                candidate[p] = lower.getKey();
                lowered = true;
            }
        }
        for (int p = 0; p < partitions; p++) {
            if (candidate[p] < cut[p]) {
                throw new IllegalStateException("consistent cut moved backwards at partition " + p + ": "
                        + Arrays.toString(cut) + " -> " + Arrays.toString(candidate));
            }
            cut[p] = candidate[p];
            Iterator<Long> below = points.get(p).headMap(cut[p], false).keySet().iterator();
            while (below.hasNext()) {
                below.next();
                below.remove();
            }
        }
    }

    private static boolean covered(long[] dependencies, int partition, long[] vector) {
        for (int q = 0; q < vector.length; q++) {
            if (q != partition && dependencies[q] > vector[q]) {
                return false;
            }
        }
        return true;
    }
}
