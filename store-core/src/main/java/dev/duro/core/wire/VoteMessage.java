package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.engine.Vote;
import java.util.List;

/**
 * Votes of one partition's replica on global transactions, sent to the replicas of the other participants
 * (DESIGN §4). Several votes travel together when they are ready at once; receivers de-duplicate.
 */
public record VoteMessage(List<Vote> votes) implements PeerMessage {
    public VoteMessage {
        votes = List.copyOf(votes);
        checkArgument(!votes.isEmpty(), "a vote message carries at least one vote");
    }

    public static VoteMessage of(Vote vote) {
        return new VoteMessage(List.of(vote));
    }

    @Override
    public MessageType type() {
        return MessageType.VOTE;
    }
}
