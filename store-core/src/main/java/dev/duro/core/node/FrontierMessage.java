package dev.duro.core.node;

import dev.duro.core.snapshot.Frontier;
import dev.duro.core.wire.MessageType;
import dev.duro.core.wire.PeerMessage;
import java.util.Objects;

/** A partition leader's frontier, gossiped to every server for the vector-of-snapshots service (docs/architecture.md §6). */
public record FrontierMessage(Frontier frontier) implements PeerMessage {
    public FrontierMessage {
        Objects.requireNonNull(frontier, "frontier");
    }

    @Override
    public MessageType type() {
        return MessageType.FRONTIER;
    }
}
