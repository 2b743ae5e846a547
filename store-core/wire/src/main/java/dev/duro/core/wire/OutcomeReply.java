package dev.duro.core.wire;

import dev.duro.core.Outcome;
import java.util.Objects;

/** The answer to a {@link CommitTransaction}: how the transaction ended. */
public record OutcomeReply(long requestId, Outcome outcome) implements ServerReply {
    public OutcomeReply {
        Objects.requireNonNull(outcome, "outcome");
    }

    @Override
    public MessageType type() {
        return MessageType.OUTCOME_REPLY;
    }
}
