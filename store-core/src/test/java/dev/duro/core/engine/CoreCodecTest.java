package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.Fuzz;
import dev.duro.core.codec.Gen;
import dev.duro.core.snapshot.Frontier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CoreCodecTest {
    private static final Limits SMALL = new Limits(8, 16, 5);

    private static <T> T roundTrip(T value, BiConsumer<ByteWriter, T> write, Function<ByteReader, T> read) {
        ByteWriter out = new ByteWriter();
        write.accept(out, value);
        ByteReader in = new ByteReader(out.toByteArray());
        T decoded = read.apply(in);
        in.expectEnd("value");
        return decoded;
    }

    @Test
    void randomValuesRoundTrip() {
        Gen gen = new Gen(1, Limits.DEFAULT);
        CoreCodec codec = new CoreCodec(Limits.DEFAULT);
        for (int i = 0; i < 2_000; i++) {
            Command command = gen.command();
            assertEquals(command, roundTrip(command, codec::writeCommand, codec::readCommand));
            Vote vote = gen.vote();
            assertEquals(vote, roundTrip(vote, CoreCodec::writeVote, codec::readVote));
            Outcome outcome = gen.outcome();
            assertEquals(outcome, roundTrip(outcome, CoreCodec::writeOutcome, codec::readOutcome));
            Frontier frontier = gen.frontier();
            assertEquals(frontier, roundTrip(frontier, CoreCodec::writeFrontier, CoreCodec::readFrontier));
        }
    }

    private static CommitRequest commit(List<Bytes> reads, List<Write> writes) {
        return new CommitRequest(new TxId(1, 2), List.of(0), 0, reads, writes);
    }

    private static byte[] encode(Command command) {
        ByteWriter out = new ByteWriter();
        new CoreCodec(Limits.DEFAULT).writeCommand(out, command);
        return out.toByteArray();
    }

    private static Command decodeSmall(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        Command command = new CoreCodec(SMALL).readCommand(in);
        in.expectEnd("command");
        return command;
    }

    private static LimitExceededException limitExceeded(Command command) {
        return assertThrows(LimitExceededException.class, () -> decodeSmall(encode(command)));
    }

    @Test
    void exactlyAtEveryLimitDecodes() {
        List<Bytes> reads = List.of(Bytes.wrap(new byte[8]), Bytes.EMPTY);
        List<Write> writes = List.of(
                Write.put(Bytes.utf8("k"), Bytes.wrap(new byte[16])),
                Write.delete(Bytes.utf8("d")),
                Write.delete(Bytes.EMPTY));
        CommitRequest request = commit(reads, writes);
        assertEquals(request, decodeSmall(encode(request)));
    }

    @Test
    void oversizeFieldsThatArePresentBreakANamedLimit() {
        LimitExceededException key = limitExceeded(commit(List.of(Bytes.wrap(new byte[9])), List.of()));
        assertEquals(Limits.Limit.KEY_BYTES, key.limit());
        assertEquals(9, key.actual());
        assertEquals(8, key.maximum());

        LimitExceededException value =
                limitExceeded(commit(List.of(), List.of(Write.put(Bytes.utf8("k"), Bytes.wrap(new byte[17])))));
        assertEquals(Limits.Limit.VALUE_BYTES, value.limit());

        // Read-set and write-set entries count together.
        List<Write> writes = new ArrayList<>(Collections.nCopies(3, Write.delete(Bytes.utf8("w"))));
        LimitExceededException keys =
                limitExceeded(commit(List.of(Bytes.utf8("a"), Bytes.utf8("b"), Bytes.utf8("c")), writes));
        assertEquals(Limits.Limit.TRANSACTION_KEYS, keys.limit());
        assertEquals(6, keys.actual());
        assertEquals(5, keys.maximum());
    }

    @Test
    void aLengthTheInputCannotHoldIsMalformedEvenAboveTheLimit() {
        byte[] bytes = encode(commit(List.of(Bytes.wrap(new byte[9])), List.of()));
        // Cut into the oversize key: its length now exceeds the input, which is inconsistent rather than too big.
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 5);
        Fuzz.assertMalformed(CoreCodecTest::decodeSmall, truncated);

        ByteWriter forged = new ByteWriter();
        forged.writeByte(1); // a commit request
        CoreCodec.writeTxId(forged, new TxId(1, 2));
        CoreCodec.writePartitions(forged, List.of(0));
        forged.writeVarLong(0).writeVarLong(1_000_000).writeByte(0); // a million read keys in one byte
        Fuzz.assertMalformed(CoreCodecTest::decodeSmall, forged.toByteArray());
    }

    @Test
    void scannedRangesRoundTripAndCountTowardsTheKeyLimit() {
        List<KeyRange> ranges =
                List.of(KeyRange.prefix(Bytes.utf8("user/")), new KeyRange(Bytes.utf8("z"), null), KeyRange.ALL);
        CommitRequest request =
                new CommitRequest(new TxId(1, 2), List.of(0), List.of(4L), List.of(Bytes.utf8("a")), List.of(), ranges);
        assertEquals(request, decodeSmall(encode(request)));

        List<KeyRange> tooMany = Collections.nCopies(5, KeyRange.ALL);
        LimitExceededException keys = limitExceeded(new CommitRequest(
                new TxId(1, 2), List.of(0), List.of(4L), List.of(Bytes.utf8("a")), List.of(), tooMany));
        assertEquals(Limits.Limit.TRANSACTION_KEYS, keys.limit());
        assertEquals(6, keys.actual());
    }

    /** Logs and engine snapshots written before ranges existed hold only this encoding, and still decode. */
    @Test
    void aRequestWithoutRangesIsEncodedAsBeforeRanges() {
        CommitRequest request = commit(List.of(Bytes.utf8("r")), List.of(Write.put(Bytes.utf8("w"), Bytes.utf8("v"))));
        ByteWriter old = new ByteWriter();
        old.writeByte(3); // format 2's commit request, as written before scanned ranges
        CoreCodec.writeTxId(old, request.tid());
        CoreCodec.writePartitions(old, request.participants());
        old.writeVarLong(0);
        CoreCodec.writeReadSet(old, request.readSet());
        CoreCodec.writeWriteSet(old, request.writeSet());
        assertEquals(Bytes.wrap(old.toByteArray()), Bytes.wrap(encode(request)));
        assertEquals(request, decodeSmall(old.toByteArray()));
    }

    @Test
    void aRangeWhoseEndIsNotAboveItsStartIsMalformed() {
        ByteWriter forged = new ByteWriter();
        forged.writeByte(7); // a commit request with ranges
        CoreCodec.writeTxId(forged, new TxId(1, 2));
        CoreCodec.writePartitions(forged, List.of(0));
        forged.writeVarLong(0);
        CoreCodec.writeReadSet(forged, List.of());
        CoreCodec.writeWriteSet(forged, List.of());
        forged.writeVarLong(1);
        forged.writeBytes(Bytes.utf8("b"));
        forged.writeNullableBytes(Bytes.utf8("a"));
        Fuzz.assertMalformed(CoreCodecTest::decodeSmall, forged.toByteArray());
    }

    @Test
    void anOversizeAbortReasonKeyBreaksTheKeyLimit() {
        Vote vote = new Vote(
                new TxId(1, 1), 3, 0, AbortReason.readKeyOverwritten(3, Bytes.wrap(new byte[9]), 7, false), false);
        ByteWriter out = new ByteWriter();
        CoreCodec.writeVote(out, vote);
        LimitExceededException error = assertThrows(
                LimitExceededException.class, () -> new CoreCodec(SMALL).readVote(new ByteReader(out.toByteArray())));
        assertEquals(Limits.Limit.KEY_BYTES, error.limit());
    }
}
