package dev.duro.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.node.PeerMessageCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WireCodecRoundTripTest {
    private static final WireCodec CODEC = PeerMessageCodec.wireCodec(Limits.DEFAULT);

    /** Decoding gives back an equal message, and encoding that gives back the same bytes: one encoding each. */
    static void assertRoundTrips(WireCodec codec, Message message) {
        byte[] frame = codec.encode(message);
        Message decoded = codec.decode(frame);
        assertEquals(message, decoded);
        assertArrayEquals(frame, codec.encode(decoded));
        assertEquals(WireCodec.PROTOCOL_VERSION, frame[0]);
        assertEquals(message.type().code(), frame[1]);
    }

    @ParameterizedTest
    @EnumSource(MessageType.class)
    void randomMessagesOfEveryTypeRoundTrip(MessageType type) {
        MessageGen gen = new MessageGen(type.code(), Limits.DEFAULT);
        for (int i = 0; i < 400; i++) {
            Message message = gen.of(type);
            assertEquals(type, message.type());
            assertRoundTrips(CODEC, message);
        }
    }

    @Test
    void maximumSizeKeysAndValuesRoundTrip() {
        Bytes key = Bytes.wrap(new byte[Limits.DEFAULT.keyBytesMax()]);
        Bytes value = Bytes.wrap(new byte[Limits.DEFAULT.valueBytesMax()]);
        assertRoundTrips(CODEC, new ReadRequest(1, key, 5, 0));
        assertRoundTrips(CODEC, new ReadReply(1, 0, 5, value, 3));
        assertRoundTrips(
                CODEC,
                new CommitTransaction(
                        1,
                        new TxId(1, 1),
                        List.of(new CommitTransaction.Participant(
                                0, 0, List.of(key), List.of(Write.put(key, value))))));
    }

    @Test
    void emptyKeysDeletesAndAbsentValuesRoundTrip() {
        assertRoundTrips(CODEC, ReadRequest.latest(1, Bytes.EMPTY, 0));
        assertRoundTrips(CODEC, new ReadReply(1, 0, 0, null, 0));
        assertRoundTrips(CODEC, new ReadReply(1, 0, 9, null, 4)); // deleted at version 4
        assertRoundTrips(
                CODEC,
                new CommitTransaction(
                        1,
                        new TxId(0, 0),
                        List.of(new CommitTransaction.Participant(
                                0,
                                0,
                                List.of(Bytes.EMPTY),
                                List.of(Write.delete(Bytes.EMPTY), Write.put(Bytes.EMPTY, Bytes.EMPTY))))));
    }

    @Test
    void aTransactionAtTheKeyLimitOverEveryPartitionRoundTrips() {
        int partitions = Limits.PARTITIONS_MAX;
        int keys = Limits.DEFAULT.transactionKeysMax();
        List<CommitTransaction.Participant> participants = new ArrayList<>();
        int written = 0;
        for (int p = 0; p < partitions; p++) {
            int here = keys / partitions + (p < keys % partitions ? 1 : 0);
            List<Write> writes =
                    new ArrayList<>(Collections.nCopies(here, Write.put(Bytes.utf8("k" + p), Bytes.utf8("v"))));
            written += here;
            participants.add(new CommitTransaction.Participant(p, p, List.of(), writes));
        }
        assertEquals(keys, written);
        CommitTransaction commit = new CommitTransaction(Long.MAX_VALUE, new TxId(-1, Long.MIN_VALUE), participants);
        assertEquals(keys, commit.keyCount());
        assertRoundTrips(CODEC, commit);
    }

    @Test
    void outcomesOfBothKindsRoundTrip() {
        TxId tid = new TxId(3, 4);
        assertRoundTrips(
                CODEC, new OutcomeReply(1, Outcome.committed(tid, List.of(0, 7), List.of(11L, Long.MAX_VALUE))));
        assertRoundTrips(
                CODEC, new OutcomeReply(1, Outcome.aborted(tid, List.of(2), AbortReason.snapshotTooOld(2, 40))));
    }

    @Test
    void requestIdsCanBeReadWithoutDecoding() {
        assertEquals(OptionalLong.of(42), WireCodec.requestIdOf(CODEC.encode(new ClusterInfoRequest(42))));
        assertEquals(
                OptionalLong.of(-7), WireCodec.requestIdOf(CODEC.encode(new ErrorReply(-7, ErrorCode.INTERNAL, "x"))));
        MessageGen gen = new MessageGen(5, Limits.DEFAULT);
        assertEquals(OptionalLong.empty(), WireCodec.requestIdOf(CODEC.encode(gen.voteMessage())));
        assertEquals(OptionalLong.empty(), WireCodec.requestIdOf(new byte[0]));
        assertEquals(OptionalLong.empty(), WireCodec.requestIdOf(new byte[] {2, 1, 5}));
        assertEquals(OptionalLong.empty(), WireCodec.requestIdOf(new byte[] {1, 1, (byte) 0x80}));
    }

    @Test
    void aSliceOfALargerBufferDecodes() {
        byte[] frame = CODEC.encode(new ClusterInfoRequest(9));
        byte[] buffer = new byte[frame.length + 4];
        System.arraycopy(frame, 0, buffer, 2, frame.length);
        assertEquals(new ClusterInfoRequest(9), CODEC.decode(buffer, 2, frame.length));
    }
}
