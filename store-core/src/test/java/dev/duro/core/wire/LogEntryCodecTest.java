package dev.duro.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.Fuzz;
import dev.duro.core.codec.Gen;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.engine.AbortRequest;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.CoreCodec;
import dev.duro.core.node.LogEntryCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogEntryCodecTest {
    private static final LogEntryCodec CODEC = new LogEntryCodec(Limits.DEFAULT);
    private static final Fuzz.Decoder DECODE = CODEC::decode;

    private static List<Command> batch(Gen gen) {
        List<Command> commands = new ArrayList<>();
        for (int i = 1 + gen.size(gen.chance(0.05) ? 500 : 20); i > 0; i--) {
            commands.add(gen.command());
        }
        return commands;
    }

    @Test
    void randomBatchesRoundTripInOrder() {
        Gen gen = new Gen(31, Limits.DEFAULT);
        for (int i = 0; i < 500; i++) {
            List<Command> commands = batch(gen);
            byte[] entry = CODEC.encode(commands);
            assertEquals(LogEntryCodec.FORMAT_VERSION, entry[0]);
            List<Command> decoded = CODEC.decode(entry);
            assertEquals(commands, decoded);
            assertArrayEquals(entry, CODEC.encode(decoded));
        }
    }

    /**
     * A log written by format 1 stays readable: a commit request with this partition's snapshot alone (taken as
     * every participant's), and an abort request without the target's snapshot (taken as 0, which never
     * tombstones an id the target may have forgotten).
     */
    @Test
    void formatOneEntriesStillDecode() {
        ByteWriter out = new ByteWriter(64);
        out.writeByte(1).writeVarLong(2);
        out.writeByte(1); // format 1 commit request
        CoreCodec.writeTxId(out, new TxId(4, 2));
        CoreCodec.writePartitions(out, List.of(0, 3));
        out.writeVarLong(17);
        CoreCodec.writeReadSet(out, List.of(Bytes.utf8("a")));
        CoreCodec.writeWriteSet(out, List.of(Write.put(Bytes.utf8("b"), Bytes.utf8("v"))));
        out.writeByte(2); // format 1 abort request
        CoreCodec.writeTxId(out, new TxId(4, 3));
        CoreCodec.writePartitions(out, List.of(0, 3));
        out.writeVarLong(3);

        List<Command> decoded = CODEC.decode(out.toByteArray());

        assertEquals(
                List.of(
                        new CommitRequest(
                                new TxId(4, 2),
                                List.of(0, 3),
                                List.of(17L, 17L),
                                List.of(Bytes.utf8("a")),
                                List.of(Write.put(Bytes.utf8("b"), Bytes.utf8("v")))),
                        new AbortRequest(new TxId(4, 3), List.of(0, 3), 3, 0)),
                decoded);
    }

    @Test
    void anEntryHoldsAtLeastOneCommand() {
        assertThrows(IllegalArgumentException.class, () -> CODEC.encode(List.of()));
        Fuzz.assertMalformed(DECODE, new byte[] {1, 0});
        Fuzz.assertMalformed(DECODE, new byte[0]);
    }

    @Test
    void anUnknownFormatVersionIsNamed() {
        byte[] entry = CODEC.encode(List.of(new AbortRequest(new TxId(1, 1), List.of(0, 1), 1, 5)));
        entry[0] = 3;
        UnsupportedVersionException error = assertThrows(UnsupportedVersionException.class, () -> CODEC.decode(entry));
        assertEquals(3, error.version());
        assertTrue(error.getMessage().contains("log entry format version 3"), error.getMessage());
    }

    @Test
    void commandsAreCheckedAgainstTheLimits() {
        CommitRequest big = new CommitRequest(
                new TxId(1, 1),
                List.of(0),
                0,
                List.of(),
                List.of(Write.put(Bytes.utf8("k"), Bytes.wrap(new byte[17]))));
        byte[] entry = CODEC.encode(List.of(big));
        LimitExceededException error =
                assertThrows(LimitExceededException.class, () -> new LogEntryCodec(new Limits(8, 16, 5)).decode(entry));
        assertEquals(Limits.Limit.VALUE_BYTES, error.limit());
    }

    @Test
    void randomBytes() {
        Random random = new Random(32);
        for (int i = 0; i < 20_000; i++) {
            byte[] input = i % 4 == 0
                    ? Fuzz.randomBytes(random, 64)
                    : Fuzz.randomAfter(random, new byte[] {1, (byte) (1 + random.nextInt(3))}, i % 20 == 0 ? 1024 : 64);
            Fuzz.decode(DECODE, input);
        }
    }

    @Test
    void everyTruncationIsMalformedAndCorruptionIsTyped() {
        Gen gen = new Gen(33, Limits.DEFAULT);
        for (int i = 0; i < 200; i++) {
            byte[] entry = CODEC.encode(batch(gen));
            if (entry.length > 16 * 1024) {
                continue; // the round-trip test covers large batches; corrupting them only costs time
            }
            for (byte[] prefix : Fuzz.truncations(entry, gen.random(), 300)) {
                Fuzz.assertMalformed(DECODE, prefix);
            }
            for (int j = 0; j < 20; j++) {
                Fuzz.decode(DECODE, Fuzz.mutate(entry, gen.random()));
            }
            for (byte[] forged : Fuzz.forgeHugeNumbers(entry, gen.random(), 100)) {
                Fuzz.decode(DECODE, forged);
            }
        }
    }

    @Test
    void aForgedCommandCountIsRejectedBeforeAllocating() {
        for (long count : new long[] {Integer.MAX_VALUE, 1L << 40, -1}) {
            Fuzz.assertMalformed(
                    DECODE,
                    new ByteWriter()
                            .writeByte(1)
                            .writeVarLong(count)
                            .writeByte(2)
                            .toByteArray());
        }
    }
}
