package dev.duro.core.engine;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import java.util.List;

/**
 * How a global transaction ended, as partition {@code loggedBy} recorded it in its own log (docs/window-safety.md).
 *
 * <p>In {@code loggedBy}'s own log it is proposed by a replica that finished the transaction from the votes; a
 * replica replaying the log finishes the transaction from it instead of asking other partitions for votes they may
 * have forgotten, and one that finished it already checks that it agrees. Once a decision is in a partition's log,
 * that partition's designated voter proposes a copy into every other participant's log: there it says that
 * {@code loggedBy} no longer needs anything of this transaction, it puts the decision in that log too (so that
 * partition finishes the transaction from it if it still waits, and copies it onwards in its own name). A
 * participant forgets a global only when the decisions of all its participants have been delivered to it. Copies
 * may repeat; every copy after the first changes nothing.
 */
public record Decision(Outcome outcome, int loggedBy) implements Command {
    public Decision {
        if (outcome.participants().size() < 2) {
            throw new IllegalArgumentException("only a global transaction's decision is logged: " + outcome.tid());
        }
        if (!outcome.participants().contains(loggedBy)) {
            throw new IllegalArgumentException("partition " + loggedBy + " is not a participant of " + outcome.tid());
        }
    }

    @Override
    public TxId tid() {
        return outcome.tid();
    }

    @Override
    public List<Integer> participants() {
        return outcome.participants();
    }
}
