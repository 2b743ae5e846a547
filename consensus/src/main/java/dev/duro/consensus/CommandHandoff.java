package dev.duro.consensus;

import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * Hands a command a node's {@link GroupCommitter} is asked to append to a partition led on another node to that
 * partition's leader, whose committer queues it into its own entries: it rides in the leader's entries instead of in
 * an entry of its own proposed through Ratis's client (docs/replication.md, "Appends go to the leader").
 */
@FunctionalInterface
public interface CommandHandoff {
    /** Hands off nothing: every command goes through this node's own queue. */
    CommandHandoff NONE = (partition, encoded) -> null;

    /**
     * Hands the command encoded as {@code encoded} ({@link CommandBatches#encodeCommand}) to {@code partition}'s
     * leader, or returns null when it cannot (no leader known, this node leads, no link to the leader, too many
     * commands waiting for answers). Otherwise returns a future completed, on any thread: normally once the leader's
     * entry holding the command is committed; with an {@link dev.duro.core.OverloadedException} when the leader's
     * queue was full and the command was not queued there; with any other failure when it may or may not be in the
     * log, and the committer then queues it itself (a command appended twice is harmless: docs/window-safety.md).
     */
    @Nullable
    CompletableFuture<Void> handOff(int partition, byte[] encoded);
}
