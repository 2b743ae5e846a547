package dev.duro.core.snapshot;

import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A random committed history over a few partitions: each partition's sequence of numbered transactions, some of
 * them committed global transactions with a number at each of their partitions.
 *
 * <p>Half the histories are one interleaving of all transactions, so globals are ordered alike everywhere; the
 * others order each partition's globals independently, as S-DUR allows when two partitions' logs deliver the
 * same two global transactions in opposite orders. Local transactions and globals aborted elsewhere are plain
 * numbers that a consistent cut may split anywhere.
 */
final class RandomHistory {
    final int partitions;
    final int[] lengths;
    final List<GlobalCommit> globals = new ArrayList<>();

    private RandomHistory(int partitions) {
        this.partitions = partitions;
        this.lengths = new int[partitions];
    }

    static RandomHistory generate(Random random, int partitions, int lengthMax) {
        RandomHistory history = new RandomHistory(partitions);
        int globalCount = random.nextInt(lengthMax + 1);
        List<List<Integer>> members = new ArrayList<>();
        for (int g = 0; g < globalCount; g++) {
            List<Integer> chosen = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                if (random.nextBoolean()) {
                    chosen.add(p);
                }
            }
            while (chosen.size() < 2) {
                int extra = random.nextInt(partitions);
                if (!chosen.contains(extra)) {
                    chosen.add(extra);
                }
            }
            Collections.sort(chosen);
            members.add(chosen);
        }
        long[][] numbers = random.nextBoolean()
                ? history.oneInterleaving(random, members, lengthMax)
                : history.independentOrders(random, members, lengthMax);
        for (int g = 0; g < members.size(); g++) {
            List<Long> at = new ArrayList<>();
            boolean placed = true;
            for (int p : members.get(g)) {
                placed &= numbers[g][p] > 0;
                at.add(numbers[g][p]);
            }
            if (placed) {
                history.globals.add(new GlobalCommit(new TxId(7, g), members.get(g), at));
            }
        }
        return history;
    }

    /** Every partition sees the transactions in one global order; a global takes the next number everywhere. */
    private long[][] oneInterleaving(Random random, List<List<Integer>> members, int lengthMax) {
        long[][] numbers = new long[members.size()][partitions];
        int nextGlobal = 0;
        while (true) {
            boolean global = nextGlobal < members.size() && random.nextInt(3) > 0;
            if (global) {
                List<Integer> at = members.get(nextGlobal);
                if (at.stream().anyMatch(p -> lengths[p] >= lengthMax)) {
                    return numbers; // no room left: the remaining globals never commit
                }
                for (int p : at) {
                    numbers[nextGlobal][p] = ++lengths[p];
                }
                nextGlobal++;
            } else {
                int p = random.nextInt(partitions);
                if (lengths[p] >= lengthMax) {
                    return numbers;
                }
                lengths[p]++;
            }
        }
    }

    /** Each partition orders its globals independently, with local transactions between them. */
    private long[][] independentOrders(Random random, List<List<Integer>> members, int lengthMax) {
        long[][] numbers = new long[members.size()][partitions];
        List<Integer> fits = new ArrayList<>();
        for (int g = 0; g < members.size(); g++) {
            fits.add(g);
        }
        // A global commits only if every partition has room for it.
        int[] room = new int[partitions];
        java.util.Arrays.fill(room, lengthMax);
        fits.removeIf(g -> {
            for (int p : members.get(g)) {
                if (room[p] == 0) {
                    return true;
                }
            }
            for (int p : members.get(g)) {
                room[p]--;
            }
            return false;
        });
        for (int p = 0; p < partitions; p++) {
            List<Integer> here = new ArrayList<>();
            for (int g : fits) {
                if (members.get(g).contains(p)) {
                    here.add(g);
                }
            }
            Collections.shuffle(here, random);
            int locals = random.nextInt(lengthMax - here.size() + 1);
            List<Integer> sequence = new ArrayList<>(here);
            for (int i = 0; i < locals; i++) {
                sequence.add(random.nextInt(sequence.size() + 1), -1);
            }
            for (int g : sequence) {
                lengths[p]++;
                if (g >= 0) {
                    numbers[g][p] = lengths[p];
                }
            }
        }
        return numbers;
    }

    /** The number of {@code global} at {@code partition}, or 0 if it is not one of its partitions. */
    static long numberAt(GlobalCommit global, int partition) {
        int index = global.partitions().indexOf(partition);
        return index < 0 ? 0 : global.numbers().get(index);
    }
}
