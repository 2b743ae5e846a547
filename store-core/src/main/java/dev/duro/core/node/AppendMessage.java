package dev.duro.core.node;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import dev.duro.core.engine.Command;
import dev.duro.core.wire.MessageType;
import dev.duro.core.wire.PeerMessage;
import java.util.List;

/**
 * Commands a node hands to the node it believes leads {@code partition}, to be appended to that partition's log in
 * the leader's own entries (docs/replication.md, "Appends go to the leader"). The leader answers with an {@link
 * AppendReply} carrying the same {@code id}, once the entry holding the commands is committed, or at once if it does
 * not lead the partition.
 *
 * @param id chosen by the sender, unique among its appends in flight on one link
 */
public record AppendMessage(long id, int partition, List<Command> commands) implements PeerMessage {
    /** The most commands one message carries. */
    public static final int COMMANDS_MAX = 4096;

    public AppendMessage {
        commands = List.copyOf(commands);
        checkArgument(id >= 0, "append id must not be negative: %s", id);
        checkArgument(
                !commands.isEmpty() && commands.size() <= COMMANDS_MAX,
                "an append carries 1 to %s commands, not %s",
                COMMANDS_MAX,
                commands.size());
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        for (Command command : commands) {
            checkArgument(
                    command.participants().contains(partition),
                    "partition %s is not a participant of %s",
                    partition,
                    command.tid());
        }
    }

    @Override
    public MessageType type() {
        return MessageType.APPEND;
    }
}
