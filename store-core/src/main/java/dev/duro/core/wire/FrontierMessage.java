package dev.duro.core.wire;

import dev.duro.core.snapshot.Frontier;
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
