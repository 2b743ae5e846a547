package dev.duro.core.node;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CoreCodec;
import dev.duro.core.wire.WireCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The content of one Raft log entry: a batch of commands (group commit), delivered to the partition engine in
 * order. An entry is one format version byte, a varint command count (at least one) and the commands in
 * {@link CoreCodec}'s encoding.
 *
 * <p>The log outlives releases, so its format is versioned independently of the wire protocol: a release that
 * changes it must still read every older version it may find in a log or snapshot. Decoding errors follow the
 * rule of {@link WireCodec}; decode with limits at least as large as those the entries were admitted under.
 */
public final class LogEntryCodec {
    /** Format 2 adds every participant's snapshot to commit requests, the target's to abort requests, and decisions. */
    public static final int FORMAT_VERSION = 2;
    /** The oldest format still read: its commands decode as documented in docs/wire-protocol.md. */
    public static final int FORMAT_VERSION_MIN = 1;

    private final CoreCodec core;

    public LogEntryCodec(Limits limits) {
        this.core = new CoreCodec(limits);
    }

    public byte[] encode(List<? extends Command> commands) {
        checkArgument(!commands.isEmpty(), "a log entry holds at least one command");
        ByteWriter out = new ByteWriter();
        out.writeByte(FORMAT_VERSION);
        out.writeVarLong(commands.size());
        for (Command command : commands) {
            core.writeCommand(out, command);
        }
        return out.toByteArray();
    }

    public List<Command> decode(byte[] entry) {
        ByteReader in = new ByteReader(entry);
        if (!in.hasRemaining()) {
            throw new MalformedInputException("empty log entry");
        }
        int count = readHeader(in, FORMAT_VERSION_MIN);
        List<Command> commands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            commands.add(core.readCommand(in));
        }
        in.expectEnd("log entry");
        return List.copyOf(commands);
    }

    /** A command of an entry, with its own bytes: joined into another entry as they are, it is the same command. */
    public record Split(Command command, byte[] encoded) {}

    /**
     * Decodes an entry keeping each command's bytes, for a leader that queues another node's commands into its own
     * entries without encoding them again. Only this build's format splits: an older command's bytes, joined into an
     * entry of this format, would be read as this format's.
     *
     * @throws UnsupportedVersionException if the entry is empty or of another format than {@link #FORMAT_VERSION}
     */
    public List<Split> split(byte[] entry) {
        ByteReader in = new ByteReader(entry);
        int count = readHeader(in, FORMAT_VERSION);
        List<Split> commands = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            int start = entry.length - in.remaining();
            Command command = core.readCommand(in);
            commands.add(new Split(command, Arrays.copyOfRange(entry, start, entry.length - in.remaining())));
        }
        in.expectEnd("log entry");
        return commands;
    }

    /** Reads the format version, which must be {@code oldestRead} or newer, and the command count, at least one. */
    private static int readHeader(ByteReader in, int oldestRead) {
        int version = in.hasRemaining() ? in.readByte() : -1;
        if (version < oldestRead || version > FORMAT_VERSION) {
            throw new UnsupportedVersionException("log entry format", version, FORMAT_VERSION);
        }
        int count = in.readLength("command count");
        if (count == 0) {
            throw new MalformedInputException("a log entry holds at least one command");
        }
        return count;
    }
}
