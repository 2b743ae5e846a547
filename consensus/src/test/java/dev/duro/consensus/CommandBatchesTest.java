package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.engine.AbortRequest;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.node.LogEntryCodec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The group committer encodes each command once, when it is queued, and joins the encodings into an entry later:
 * the joined entry must be the entry that encoding the commands together gives, or replicas would decode another
 * log than the one proposed.
 */
class CommandBatchesTest {
    private final CommandBatches batches = new CommandBatches(Limits.DEFAULT);

    private static List<Command> commands() {
        return List.of(
                new CommitRequest(
                        new TxId(1, 1),
                        List.of(0),
                        5,
                        List.of(Bytes.utf8("read")),
                        List.of(Write.put(Bytes.utf8("k"), Bytes.utf8("v")), Write.delete(Bytes.utf8("gone")))),
                new AbortRequest(new TxId(2, 9), List.of(0, 3), 3, 4),
                new CommitRequest(new TxId(1, 2), List.of(0, 1), List.of(7L, 8L), List.of(), List.of()));
    }

    @Test
    void commandsEncodedOneByOneAndJoinedAreTheEntryEncodedAtOnce() {
        List<byte[]> oneByOne = commands().stream().map(batches::encodeCommand).toList();

        byte[] joined = batches.join(oneByOne);

        assertArrayEquals(batches.encode(commands()), joined);
        assertEquals(commands(), batches.decode(joined), "in their order");
    }

    @Test
    void anEntryHoldsAtLeastOneCommand() {
        assertThrows(IllegalArgumentException.class, () -> batches.join(List.of()));
    }

    @Test
    void anEntrySplitIntoItsCommandsJoinsAgainIntoTheSameEntry() {
        byte[] entry = batches.encode(commands());

        List<LogEntryCodec.Split> split = batches.split(entry);

        assertEquals(
                commands(), split.stream().map(LogEntryCodec.Split::command).toList());
        for (LogEntryCodec.Split command : split) {
            assertArrayEquals(batches.encodeCommand(command.command()), command.encoded());
        }
        assertArrayEquals(
                entry,
                batches.join(split.stream().map(LogEntryCodec.Split::encoded).toList()),
                "a leader's entry carries a handed-off command byte for byte");
    }

    @Test
    void onlyAWholeEntryOfThisBuildsFormatSplits() {
        byte[] entry = batches.encode(commands());
        byte[] older = entry.clone();
        older[0] = (byte) (LogEntryCodec.FORMAT_VERSION - 1);
        assertThrows(UnsupportedVersionException.class, () -> batches.split(older));
        assertThrows(UnsupportedVersionException.class, () -> batches.split(new byte[0]));
        assertThrows(MalformedInputException.class, () -> batches.split(Arrays.copyOf(entry, entry.length - 1)));
        assertThrows(MalformedInputException.class, () -> batches.split(Arrays.copyOf(entry, entry.length + 1)));
        byte[] none = {(byte) LogEntryCodec.FORMAT_VERSION, 0};
        assertThrows(MalformedInputException.class, () -> batches.split(none));
    }
}
