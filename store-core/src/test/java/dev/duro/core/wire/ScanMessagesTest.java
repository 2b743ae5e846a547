package dev.duro.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import dev.duro.core.StoreEntry;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.node.CommitRequests;
import dev.duro.core.node.PeerMessageCodec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scan messages and the scanned ranges a commit carries (docs/wire-protocol.md, docs/ranges.md). */
class ScanMessagesTest {
    private static final WireCodec CODEC = PeerMessageCodec.wireCodec(Limits.DEFAULT);

    private static Bytes key(String text) {
        return Bytes.utf8(text);
    }

    private static CommitTransaction.Participant participant(int partition, List<KeyRange> ranges) {
        return new CommitTransaction.Participant(
                partition, 7, List.of(key("r")), List.of(Write.put(key("w"), key("v"))), ranges);
    }

    @Test
    void aScanRequestAndItsReplyRoundTrip() {
        ScanRequest request = new ScanRequest(3, 2, ReadRequest.LATEST, 5, KeyRange.prefix(key("user/")), 100, true);
        WireCodecRoundTripTest.assertRoundTrips(CODEC, request);
        WireCodecRoundTripTest.assertRoundTrips(
                CODEC, new ScanRequest(4, 0, 12, 0, new KeyRange(Bytes.EMPTY, null), Integer.MAX_VALUE, false));
        ScanReply reply = new ScanReply(
                3,
                2,
                40,
                List.of(new StoreEntry(key("user/b"), key("2"), 9), new StoreEntry(key("user/a"), key(""), 1)),
                true);
        WireCodecRoundTripTest.assertRoundTrips(CODEC, reply);
        WireCodecRoundTripTest.assertRoundTrips(CODEC, new ScanReply(3, 2, 40, List.of(), false));
    }

    @Test
    void aCommitWithoutRangesIsWrittenAsBeforeRanges() {
        CommitTransaction plain = new CommitTransaction(1, new TxId(1, 2), List.of(participant(0, List.of())));
        byte[] frame = CODEC.encode(plain);
        // requestId 1, txid (16 bytes), then the participant count, unflagged.
        assertEquals(1, frame[2 + 1 + 16]);
        WireCodecRoundTripTest.assertRoundTrips(CODEC, plain);
    }

    @Test
    void aCommitCarriesItsScannedRangesToEveryParticipantsRequest() {
        List<KeyRange> ranges = List.of(new KeyRange(key("a"), key("c")), new KeyRange(key("x"), null));
        CommitTransaction commit =
                new CommitTransaction(9, new TxId(4, 4), List.of(participant(1, ranges), participant(3, List.of())));
        WireCodecRoundTripTest.assertRoundTrips(CODEC, commit);
        assertEquals(2 + 2 + 2, commit.keyCount());
        List<CommitRequest> requests = CommitRequests.of(commit);
        assertEquals(ranges, requests.get(0).scannedRanges());
        assertEquals(List.of(), requests.get(1).scannedRanges());
    }

    @Test
    void scannedRangesCountTowardsTheTransactionKeyLimit() {
        WireCodec strict = PeerMessageCodec.wireCodec(new Limits(64, 64, 3));
        List<KeyRange> ranges = List.of(new KeyRange(key("a"), key("b")), new KeyRange(key("c"), key("d")));
        byte[] frame = CODEC.encode(new CommitTransaction(1, new TxId(1, 1), List.of(participant(0, ranges))));
        LimitExceededException refused = assertThrows(LimitExceededException.class, () -> strict.decode(frame));
        assertTrue(refused.getMessage().contains("limits.transaction-keys-max"), refused.getMessage());
    }

    @Test
    void everyTruncationOfACommitWithRangesIsMalformed() {
        CommitTransaction commit = new CommitTransaction(
                1, new TxId(1, 1), List.of(participant(0, List.of(new KeyRange(key("a"), key("b"))))));
        byte[] frame = CODEC.encode(commit);
        for (int length = 0; length < frame.length; length++) {
            byte[] cut = Arrays.copyOf(frame, length);
            assertThrows(MalformedInputException.class, () -> CODEC.decode(cut), "length " + length);
        }
    }

    @Test
    void aFlaggedCommitWithoutAnyRangeIsMalformed() {
        ByteWriter out = new ByteWriter();
        out.writeByte(WireCodec.PROTOCOL_VERSION).writeByte(MessageType.COMMIT_TRANSACTION.code());
        out.writeVarLong(1).writeLong(1).writeLong(1);
        out.writeVarLong(1 + ClientMessageCodec.RANGES_FLAG);
        out.writeVarLong(0).writeVarLong(0).writeVarLong(0).writeVarLong(0).writeVarLong(0);
        MalformedInputException refused =
                assertThrows(MalformedInputException.class, () -> CODEC.decode(out.toByteArray()));
        assertTrue(refused.getMessage().contains("scanned ranges"), refused.getMessage());
    }

    @Test
    void badScanRequestsAreRefusedNamingTheField() {
        ScanRequest request = new ScanRequest(1, 0, ReadRequest.LATEST, 0, new KeyRange(key("a"), key("b")), 1, false);
        byte[] frame = CODEC.encode(request);
        byte[] zeroLimit = frame.clone();
        zeroLimit[frame.length - 2] = 0; // the limit, a one-byte varint before the direction
        MalformedInputException noLimit = assertThrows(MalformedInputException.class, () -> CODEC.decode(zeroLimit));
        assertTrue(noLimit.getMessage().contains("limit"), noLimit.getMessage());
        byte[] reversed = CODEC.encode(request);
        int from = Arrays.asList(toObjects(reversed)).indexOf((byte) 'a');
        reversed[from] = 'c'; // [c, b) is empty and malformed
        MalformedInputException empty = assertThrows(MalformedInputException.class, () -> CODEC.decode(reversed));
        assertTrue(empty.getMessage().contains("scan range end"), empty.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ScanRequest(1, 0, -1, 0, KeyRange.ALL, 0, false));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ScanReply(1, 0, 0, List.of(), true)); // more, but nothing to resume after
    }

    @Test
    void aScanReplyChecksValuesAgainstTheLimit() {
        WireCodec strict = PeerMessageCodec.wireCodec(new Limits(64, 4, 10));
        byte[] frame =
                CODEC.encode(new ScanReply(1, 0, 3, List.of(new StoreEntry(key("k"), key("too long"), 1)), false));
        LimitExceededException refused = assertThrows(LimitExceededException.class, () -> strict.decode(frame));
        assertTrue(refused.getMessage().contains("limits.value-bytes-max"), refused.getMessage());
        assertArrayEquals(frame, CODEC.encode(CODEC.decode(frame)));
    }

    private static Byte[] toObjects(byte[] bytes) {
        Byte[] boxed = new Byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            boxed[i] = bytes[i];
        }
        return boxed;
    }
}
