package dev.duro.core.node;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import dev.duro.core.engine.Vote;
import dev.duro.core.wire.MessageType;
import dev.duro.core.wire.PeerMessage;
import java.util.List;

/**
 * Votes of one partition's replica on global transactions, sent to the replicas of the other participants
 * (docs/architecture.md §4). Several votes travel together when they are ready at once; receivers de-duplicate.
 *
 * @param targetPartition the partition whose replicas the votes are for: a node hosting several partitions hands
 *     them to that replica only
 */
public record VoteMessage(int targetPartition, List<Vote> votes) implements PeerMessage {
    public VoteMessage {
        votes = List.copyOf(votes);
        checkArgument(!votes.isEmpty(), "a vote message carries at least one vote");
        checkArgument(
                targetPartition >= 0 && targetPartition < Limits.PARTITIONS_MAX,
                "target partition out of range: %s",
                targetPartition);
    }

    public static VoteMessage of(int targetPartition, Vote vote) {
        return new VoteMessage(targetPartition, List.of(vote));
    }

    @Override
    public MessageType type() {
        return MessageType.VOTE;
    }
}
