package dev.duro.core.sim;

import java.util.Map;
import java.util.TreeMap;

/** Named counts of what happened in a run (commits, aborts by reason, crashes, dropped messages…). */
final class Counters {
    private final Map<String, Long> counts = new TreeMap<>();

    void increment(String name) {
        add(name, 1);
    }

    void add(String name, long amount) {
        counts.merge(name, amount, Long::sum);
    }

    long get(String name) {
        return counts.getOrDefault(name, 0L);
    }

    void addAll(Counters other) {
        other.counts.forEach(this::add);
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
