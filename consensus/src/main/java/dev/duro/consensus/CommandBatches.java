package dev.duro.consensus;

import dev.duro.core.Limits;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CoreCodec;
import dev.duro.core.node.LogEntryCodec;
import java.util.List;

/**
 * The content of one Raft log entry: a batch of commands (group commit) in {@link LogEntryCodec}'s format. Each
 * command is encoded once, when it is queued ({@link #encodeCommand}), and joined into an entry later.
 */
public final class CommandBatches {
    private final CoreCodec codec;
    private final LogEntryCodec entries;

    public CommandBatches(Limits limits) {
        this.codec = new CoreCodec(limits);
        this.entries = new LogEntryCodec(limits);
    }

    public byte[] encode(List<? extends Command> commands) {
        return entries.encode(commands);
    }

    /** One command's encoding, to be joined into a batch by {@link #join} without encoding it again. */
    public byte[] encodeCommand(Command command) {
        ByteWriter out = new ByteWriter(64);
        codec.writeCommand(out, command);
        return out.toByteArray();
    }

    /** A batch of already encoded commands; equal to {@link #encode} of the commands. */
    public byte[] join(List<byte[]> encodedCommands) {
        if (encodedCommands.isEmpty()) {
            throw new IllegalArgumentException("a log entry holds at least one command");
        }
        int size = 11;
        for (byte[] command : encodedCommands) {
            size += command.length;
        }
        ByteWriter out = new ByteWriter(size);
        out.writeByte(LogEntryCodec.FORMAT_VERSION);
        out.writeVarLong(encodedCommands.size());
        for (byte[] command : encodedCommands) {
            out.writeRaw(command);
        }
        return out.toByteArray();
    }

    /**
     * The commands of an entry another node joined ({@link #join}), each with its bytes, to be queued into this node's
     * entries without encoding them again.
     *
     * @throws dev.duro.core.codec.MalformedInputException if the bytes are no valid entry
     * @throws dev.duro.core.codec.UnsupportedVersionException if the entry is of another format than the one this
     *     build writes: its commands could not be joined into this build's entries as they are
     */
    public List<LogEntryCodec.Split> split(byte[] entry) {
        return entries.split(entry);
    }

    /**
     * Decodes an entry of any format this build reads (format 1's commands still decode).
     *
     * @throws dev.duro.core.codec.MalformedInputException if the bytes are no valid entry
     * @throws dev.duro.core.codec.UnsupportedVersionException if the entry was written by a newer release: the
     *     replica must not skip it (its peers on the newer release would not), so it stops
     */
    public List<Command> decode(byte[] entry) {
        return entries.decode(entry);
    }
}
