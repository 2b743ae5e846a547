package dev.duro.core.node;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.wire.MessageType;
import dev.duro.core.wire.PeerMessage;

/**
 * A log entry a node's committer batched for {@code partition}, handed to the node it believes leads that partition,
 * whose committer queues the entry's commands into its own entries (docs/replication.md, "Appends go to the
 * leader"). The leader answers with an {@link AppendReply} carrying the same {@code id}, once the entries holding the
 * commands are committed, or at once if it does not lead the partition or cannot take them.
 *
 * @param id chosen by the sender, unique among its appends in flight on one link
 * @param entry the commands, in {@link LogEntryCodec}'s format; the leader checks them as it queues them
 */
public record AppendMessage(long id, int partition, Bytes entry) implements PeerMessage {
    public AppendMessage {
        requireNonNull(entry, "entry");
        checkArgument(id >= 0, "append id must not be negative: %s", id);
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(entry.size() > 0, "an append carries a log entry, not an empty one");
    }

    @Override
    public MessageType type() {
        return MessageType.APPEND;
    }
}
