package dev.duro.core.sim;

import dev.duro.core.Bytes;
import java.util.List;
import java.util.TreeSet;

/** What a transaction will do, decided before it starts: its kind and its reads and writes, in order. */
record TransactionPlan(Kind kind, List<Step> steps) {
    enum Kind {
        /** Certified at commit: local (one partition) or global (several). */
        UPDATE,
        /** Declared read-only over several partitions: reads the tracker's consistent cut, never certified. */
        READ_ONLY_AT_CUT,
        /** Declared read-only on one partition: reads one replica's snapshot, never certified. */
        READ_ONLY_LOCAL
    }

    enum Action {
        READ,
        /** Read the key, then buffer a new value for it (ws ⊆ rs). */
        WRITE,
        /** Read the key, then buffer its deletion. */
        DELETE,
        /**
         * Scan the keys that start with the step's key (a prefix of one partition's keys), all or up to a small
         * limit, ascending or descending: a read of every key in the range it observed, absent ones included.
         */
        SCAN
    }

    /** One read, write, delete or scan; for a scan, {@code key} is the prefix. */
    record Step(Bytes key, int partition, Action action) {}

    TransactionPlan {
        steps = List.copyOf(steps);
    }

    /** The partitions the steps touch, ascending. */
    List<Integer> partitions() {
        TreeSet<Integer> partitions = new TreeSet<>();
        for (Step step : steps) {
            partitions.add(step.partition());
        }
        return List.copyOf(partitions);
    }

    boolean declaredReadOnly() {
        return kind != Kind.UPDATE;
    }
}
