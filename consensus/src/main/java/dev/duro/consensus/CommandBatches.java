package dev.duro.consensus;

import dev.duro.core.Limits;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.CoreCodec;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.Command;
import java.util.ArrayList;
import java.util.List;

/** The content of one Raft log entry: a batch of commands (group commit), with a format version. */
public final class CommandBatches {
    private static final int FORMAT_VERSION = 1;

    private final CoreCodec codec;

    public CommandBatches(Limits limits) {
        this.codec = new CoreCodec(limits);
    }

    public byte[] encode(List<? extends Command> commands) {
        ByteWriter out = new ByteWriter(64 * commands.size() + 8);
        out.writeByte(FORMAT_VERSION);
        out.writeVarLong(commands.size());
        for (Command command : commands) {
            codec.writeCommand(out, command);
        }
        return out.toByteArray();
    }

    /** One command's encoding, to be joined into a batch by {@link #join} without encoding it again. */
    public byte[] encodeCommand(Command command) {
        ByteWriter out = new ByteWriter(64);
        codec.writeCommand(out, command);
        return out.toByteArray();
    }

    /** A batch of already encoded commands; equal to {@link #encode} of the commands. */
    public byte[] join(List<byte[]> encodedCommands) {
        int size = 11;
        for (byte[] command : encodedCommands) {
            size += command.length;
        }
        ByteWriter out = new ByteWriter(size);
        out.writeByte(FORMAT_VERSION);
        out.writeVarLong(encodedCommands.size());
        for (byte[] command : encodedCommands) {
            out.writeRaw(command);
        }
        return out.toByteArray();
    }

    public List<Command> decode(byte[] entry) {
        ByteReader in = new ByteReader(entry);
        int version = in.readByte();
        if (version != FORMAT_VERSION) {
            throw new MalformedInputException("unsupported log entry format " + version);
        }
        int count = in.readVarInt(in.remaining(), "commands in log entry");
        List<Command> commands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            commands.add(codec.readCommand(in));
        }
        in.expectEnd("log entry");
        return commands;
    }
}
