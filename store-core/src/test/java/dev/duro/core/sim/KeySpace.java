package dev.duro.core.sim;

import dev.duro.core.Bytes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys of the simulated store: per partition a few hot keys (so transactions really conflict) and more
 * cold ones. Each key belongs to exactly one partition.
 */
final class KeySpace {
    private final List<List<Bytes>> hot = new ArrayList<>();
    private final List<List<Bytes>> cold = new ArrayList<>();
    private final Map<Bytes, Integer> partitionOf = new HashMap<>();

    KeySpace(int partitions, int hotKeys, int coldKeys) {
        for (int p = 0; p < partitions; p++) {
            hot.add(keys(p, "hot", hotKeys));
            cold.add(keys(p, "cold", coldKeys));
        }
    }

    private List<Bytes> keys(int partition, String kind, int count) {
        List<Bytes> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Bytes key = Bytes.utf8("p" + partition + "/" + kind + i);
            keys.add(key);
            partitionOf.put(key, partition);
        }
        return keys;
    }

    Bytes pick(int partition, boolean hotKey, Dice dice) {
        return dice.pick(hotKey ? hot.get(partition) : cold.get(partition));
    }

    /**
     * A prefix of one partition's keys for a scan: its hot keys, its cold keys with a given first digit, or all of
     * its keys. Every key with the prefix belongs to the partition.
     */
    Bytes scanPrefix(int partition, Dice dice) {
        int roll = dice.between(0, 3);
        String prefix = "p" + partition + "/";
        if (roll <= 1) {
            return Bytes.utf8(prefix + "hot");
        }
        if (roll == 2) {
            return Bytes.utf8(prefix + "cold" + dice.between(0, 9));
        }
        return Bytes.utf8(prefix);
    }

    int partitionOf(Bytes key) {
        Integer partition = partitionOf.get(key);
        if (partition == null) {
            throw new IllegalArgumentException("not a key of the simulation: " + key);
        }
        return partition;
    }
}
