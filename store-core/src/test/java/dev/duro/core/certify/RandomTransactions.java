package dev.duro.core.certify;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random readsets and writesets over a small key space, so that conflicts are frequent. */
final class RandomTransactions {
    private final Random random;
    private final int keySpace;

    RandomTransactions(Random random, int keySpace) {
        this.random = random;
        this.keySpace = keySpace;
    }

    /** Up to {@code most} distinct keys; written keys may repeat read ones, as they do in real transactions. */
    List<Bytes> keys(int most) {
        int count = random.nextInt(most + 1);
        List<Bytes> keys = new ArrayList<>(count);
        while (keys.size() < count) {
            Bytes key = Bytes.utf8("k" + random.nextInt(keySpace));
            if (!keys.contains(key)) {
                keys.add(key);
            }
        }
        return keys;
    }

    List<Write> writes(int most) {
        List<Write> writes = new ArrayList<>();
        for (Bytes key : keys(most)) {
            writes.add(Write.put(key, Bytes.utf8("v")));
        }
        return writes;
    }

    /**
     * Up to {@code most} scanned ranges over the keys {@code "k<n>"}: the keys with a prefix, from a key to the
     * end, or between two keys.
     */
    List<KeyRange> ranges(int most) {
        int count = random.nextInt(most + 1);
        List<KeyRange> ranges = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Bytes from = Bytes.utf8("k" + random.nextInt(keySpace));
            int roll = random.nextInt(8);
            if (roll == 0) {
                ranges.add(new KeyRange(from, null));
            } else if (roll < 4) {
                ranges.add(KeyRange.prefix(from));
            } else {
                Bytes other = Bytes.utf8("k" + random.nextInt(keySpace));
                int order = from.compareTo(other);
                ranges.add(
                        order == 0
                                ? KeyRange.prefix(from)
                                : order < 0 ? new KeyRange(from, other) : new KeyRange(other, from));
            }
        }
        return ranges;
    }

    /** Usually inside the window, sometimes just outside it, sometimes above PSC. */
    long snapshot(long pendingSnapshotCounter, int windowTransactions) {
        int roll = random.nextInt(20);
        long snapshot;
        if (roll == 0) {
            snapshot = pendingSnapshotCounter + 1 + random.nextInt(2);
        } else if (roll == 1) {
            snapshot = pendingSnapshotCounter - windowTransactions - 1 - random.nextInt(2);
        } else {
            snapshot = pendingSnapshotCounter - random.nextInt(windowTransactions + 1);
        }
        return Math.max(0, snapshot);
    }
}
