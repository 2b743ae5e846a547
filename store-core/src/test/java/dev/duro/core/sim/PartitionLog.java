package dev.duro.core.sim;

import dev.duro.core.TxId;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CutAdvance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One partition's atomic broadcast: an append-only list of batches (log entries) that every replica delivers in
 * the same order. Appending is the moment a command is ordered; replicas deliver later, each at its own pace.
 */
final class PartitionLog {
    private final List<List<Command>> batches = new ArrayList<>();
    /** Position (command index) of the first command for each transaction, in log order. */
    private final Map<TxId, Long> firstPosition = new LinkedHashMap<>();

    private long commands;

    /** Appends a batch and returns its index. */
    int append(List<Command> batch) {
        for (Command command : batch) {
            if (!(command instanceof CutAdvance)) { // not a transaction's
                firstPosition.putIfAbsent(command.tid(), commands);
            }
            commands++;
        }
        batches.add(List.copyOf(batch));
        return batches.size() - 1;
    }

    int size() {
        return batches.size();
    }

    List<Command> batch(int index) {
        return batches.get(index);
    }

    boolean mentions(TxId tid) {
        return firstPosition.containsKey(tid);
    }

    /** Every transaction the log mentions, ordered by the position of its first command. */
    Set<TxId> transactionsInOrder() {
        return firstPosition.keySet();
    }
}
