package dev.duro.core.snapshot;

import dev.duro.core.TxId;
import java.util.List;

/**
 * A committed global transaction and its commit number at each of its partitions ({@code c_p(t)}, learned from
 * the votes). A consistent cut includes it at all of its partitions or at none.
 */
public record GlobalCommit(TxId tid, List<Integer> partitions, List<Long> numbers) {
    public GlobalCommit {
        partitions = List.copyOf(partitions);
        numbers = List.copyOf(numbers);
        if (partitions.size() != numbers.size() || partitions.size() < 2) {
            throw new IllegalArgumentException("a global commit has a number for each of its >= 2 partitions");
        }
    }
}
