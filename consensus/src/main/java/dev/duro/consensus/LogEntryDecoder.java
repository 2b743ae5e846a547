package dev.duro.consensus;

import dev.duro.core.Limits;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.Command;
import java.util.ArrayList;
import java.util.List;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one committed log entry into the commands one partition's replica delivers: a batch of commit requests,
 * abort requests and decisions ({@link CommandBatches}), of which only those addressed to the partition are kept.
 * Decides nothing else: delivering them is the {@link ReplicaEngine}'s.
 */
final class LogEntryDecoder {
    /** The replica's logger: its lines read as they did before this class was taken out of it. */
    private static final Logger LOG = LoggerFactory.getLogger(PartitionStateMachine.class);

    private final int partition;
    private final CommandBatches batches;

    LogEntryDecoder(int partition, Limits limits) {
        this.partition = partition;
        this.batches = new CommandBatches(limits);
    }

    /**
     * Decodes an entry (commit requests, abort requests and decisions), keeping only commands addressed to this
     * partition. The same bytes give the same result at every replica, so skipping a bad entry (which the server
     * never proposes) keeps replicas identical. An entry of a newer log format is not skipped: the decoder's
     * {@code UnsupportedVersionException} stops this replica, since replicas of the newer release would apply it.
     */
    List<Command> decode(LogEntryProto entry) {
        try {
            List<Command> decoded =
                    batches.decode(entry.getStateMachineLogEntry().getLogData().toByteArray());
            List<Command> ours = new ArrayList<>(decoded.size());
            for (Command command : decoded) {
                if (command.participants().contains(partition)) {
                    ours.add(command);
                } else {
                    LOG.warn("partition {} skips a command for other partitions: {}", partition, command.tid());
                }
            }
            return ours;
        } catch (MalformedInputException e) {
            LOG.warn("partition {} skips malformed log entry {}: {}", partition, entry.getIndex(), e.getMessage());
            return List.of();
        }
    }
}
