package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.TxId;
import javax.annotation.Nullable;

/**
 * A partition's vote on a global transaction, identical at every replica of that partition.
 *
 * @param partition the voting partition
 * @param commitNumber {@code c_p(t)}: the number the transaction got at that partition if it passed
 *     certification there, 0 otherwise. It tells every participant where {@code t} sits in the other
 *     partitions' order, which the snapshot-vector service needs.
 * @param reason why the partition votes abort; null for a commit vote
 * @param replyWanted the sender is missing the receiver's vote and asks for it (set on retransmissions)
 * @param decisionWanted the sender keeps the transaction until the receiver's logged {@link Decision} reaches its
 *     log, and asks the receiver to copy it there (see {@link PartitionEngine})
 */
public record Vote(
        TxId tid,
        int partition,
        long commitNumber,
        @Nullable AbortReason reason,
        boolean replyWanted,
        boolean decisionWanted) {
    public Vote(TxId tid, int partition, long commitNumber, @Nullable AbortReason reason, boolean replyWanted) {
        this(tid, partition, commitNumber, reason, replyWanted, false);
    }

    public boolean commit() {
        return reason == null;
    }

    public Vote withReplyWanted(boolean wanted) {
        return wanted == replyWanted && !decisionWanted
                ? this
                : new Vote(tid, partition, commitNumber, reason, wanted, false);
    }

    public Vote withDecisionWanted() {
        return new Vote(tid, partition, commitNumber, reason, replyWanted, true);
    }
}
