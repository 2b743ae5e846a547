package dev.duro.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.engine.CoreCodec;
import dev.duro.core.node.PeerMessageCodec;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The decoding-error rule: unsupported version, malformed frame, or a limit broken by data that is present. */
class WireCodecErrorsTest {
    private static final Limits SMALL = new Limits(8, 16, 5);
    private static final WireCodec LENIENT = PeerMessageCodec.wireCodec(Limits.DEFAULT);
    private static final WireCodec STRICT = PeerMessageCodec.wireCodec(SMALL);

    private static String malformed(byte[] frame) {
        return assertThrows(MalformedInputException.class, () -> STRICT.decode(frame))
                .getMessage();
    }

    private static LimitExceededException limitExceeded(Message message) {
        byte[] frame = LENIENT.encode(message);
        return assertThrows(LimitExceededException.class, () -> STRICT.decode(frame));
    }

    private static CommitTransaction.Participant participant(int partition, int reads, int writes) {
        return new CommitTransaction.Participant(
                partition,
                0,
                Collections.nCopies(reads, Bytes.utf8("r")),
                Collections.nCopies(writes, Write.delete(Bytes.utf8("w"))));
    }

    @Test
    void anUnknownVersionIsNamed() {
        for (int version : new int[] {0, 2, 255}) {
            byte[] frame = LENIENT.encode(new ClusterInfoRequest(1));
            frame[0] = (byte) version;
            UnsupportedVersionException error =
                    assertThrows(UnsupportedVersionException.class, () -> STRICT.decode(frame));
            assertEquals(version, error.version());
            assertEquals(WireCodec.PROTOCOL_VERSION, error.supported());
            assertTrue(error.getMessage().contains("wire protocol version " + version), error.getMessage());
        }
    }

    @Test
    void structuralProblemsAreMalformed() {
        assertTrue(malformed(new byte[0]).contains("empty frame"));
        assertTrue(malformed(new byte[] {1}).contains("truncated"));
        assertTrue(malformed(new byte[] {1, 0x7f, 0}).contains("unknown message type 0x7f"));
        assertTrue(malformed(new byte[] {1, 0, 0}).contains("unknown message type 0x0"));
        byte[] frame = LENIENT.encode(new ClusterInfoRequest(1));
        byte[] trailing = Arrays.copyOf(frame, frame.length + 1);
        assertTrue(malformed(trailing).contains("trailing"));
    }

    @Test
    void fieldsOutsideTheProtocolRangeAreMalformed() {
        // A participant list out of order cannot be constructed, so forge one.
        ByteWriter out = new ByteWriter().writeByte(1).writeByte(MessageType.COMMIT_TRANSACTION.code());
        out.writeVarLong(1);
        CoreCodec.writeTxId(out, new TxId(1, 1));
        out.writeVarLong(2);
        out.writeVarLong(5).writeVarLong(0).writeVarLong(0).writeVarLong(0);
        out.writeVarLong(4).writeVarLong(0).writeVarLong(0).writeVarLong(0);
        assertTrue(malformed(out.toByteArray()).contains("ascend"));

        ByteWriter reply = new ByteWriter().writeByte(1).writeByte(MessageType.READ_REPLY.code());
        reply.writeVarLong(1)
                .writeVarLong(Limits.PARTITIONS_MAX)
                .writeVarLong(0)
                .writeBoolean(false)
                .writeVarLong(0);
        assertTrue(malformed(reply.toByteArray()).contains("partition out of range"));

        ByteWriter votes = new ByteWriter()
                .writeByte(1)
                .writeByte(MessageType.VOTE.code())
                .writeVarLong(0) // target partition
                .writeVarLong(0); // no votes
        assertTrue(malformed(votes.toByteArray()).contains("at least one vote"));
    }

    @Test
    void oversizeKeysValuesAndTransactionsNameTheirLimit() {
        LimitExceededException key = limitExceeded(new ReadRequest(1, Bytes.wrap(new byte[9]), 0, 0));
        assertEquals(Limits.Limit.KEY_BYTES, key.limit());
        assertEquals(9, key.actual());
        assertTrue(key.getMessage().contains("limits.key-bytes-max"), key.getMessage());

        LimitExceededException value = limitExceeded(new ReadReply(1, 0, 0, Bytes.wrap(new byte[17]), 1));
        assertEquals(Limits.Limit.VALUE_BYTES, value.limit());

        // The key limit covers the whole transaction: 3 + 3 keys over two partitions break a limit of 5.
        LimitExceededException keys = limitExceeded(
                new CommitTransaction(1, new TxId(1, 1), List.of(participant(0, 2, 1), participant(1, 1, 2))));
        assertEquals(Limits.Limit.TRANSACTION_KEYS, keys.limit());
        assertEquals(6, keys.actual());

        LimitExceededException splitPoint = limitExceeded(new ClusterInfoReply(
                1,
                "c",
                PartitionerSpec.range(List.of(Bytes.wrap(new byte[9]))),
                List.of(leaderless(), leaderless()),
                Limits.DEFAULT));
        assertEquals(Limits.Limit.KEY_BYTES, splitPoint.limit());
    }

    private static ClusterInfoReply.PartitionInfo leaderless() {
        return new ClusterInfoReply.PartitionInfo(
                List.of(new HostPort("h", 1)), ClusterInfoReply.PartitionInfo.NO_LEADER);
    }

    @Test
    void exactlyAtTheLimitsDecodes() {
        Message commit = new CommitTransaction(1, new TxId(1, 1), List.of(participant(0, 2, 1), participant(1, 1, 1)));
        assertEquals(commit, STRICT.decode(LENIENT.encode(commit)));
        Message read = new ReadRequest(1, Bytes.wrap(new byte[8]), 0, 0);
        assertEquals(read, STRICT.decode(LENIENT.encode(read)));
        Message reply = new ReadReply(1, 0, 0, Bytes.wrap(new byte[16]), 1);
        assertEquals(reply, STRICT.decode(LENIENT.encode(reply)));
    }

    @Test
    void anOversizeLengthTheFrameCannotHoldIsMalformed() {
        // Key length 9 (over the limit of 8) but only 3 key bytes follow: inconsistent, not oversize.
        byte[] frame = LENIENT.encode(new ReadRequest(1, Bytes.wrap(new byte[9]), 0, 0));
        byte[] cut = Arrays.copyOf(frame, 3 + 1 + 3);
        assertTrue(malformed(cut).contains("key length 9 exceeds"));

        // A million read keys claimed in a few bytes.
        ByteWriter out = new ByteWriter().writeByte(1).writeByte(MessageType.COMMIT_TRANSACTION.code());
        out.writeVarLong(1);
        CoreCodec.writeTxId(out, new TxId(1, 1));
        out.writeVarLong(1)
                .writeVarLong(0)
                .writeVarLong(0)
                .writeVarLong(1_000_000)
                .writeVarLong(0);
        assertTrue(malformed(out.toByteArray()).contains("read set size 1000000 exceeds"));
    }

    @Test
    void theRequestIdOfARejectedFrameCanStillBeAnswered() {
        byte[] frame = LENIENT.encode(new ReadRequest(77, Bytes.wrap(new byte[9]), 0, 0));
        assertThrows(LimitExceededException.class, () -> STRICT.decode(frame));
        assertEquals(OptionalLong.of(77), WireCodec.requestIdOf(frame));
    }

    @Test
    void anUnknownErrorCodeFromANewerServerReadsAsInternal() {
        ByteWriter out = new ByteWriter().writeByte(1).writeByte(MessageType.ERROR_REPLY.code());
        out.writeVarLong(5).writeVarLong(99).writeUtf8("disk on fire");
        ErrorReply reply = (ErrorReply) STRICT.decode(out.toByteArray());
        assertEquals(new ErrorReply(5, ErrorCode.INTERNAL, "unknown error code 99: disk on fire"), reply);
    }

    @Test
    void invalidTextIsMalformed() {
        ByteWriter out = new ByteWriter().writeByte(1).writeByte(MessageType.ERROR_REPLY.code());
        out.writeVarLong(5).writeVarLong(1).writeVarLong(2).writeByte(0xc3).writeByte(0x28);
        assertTrue(malformed(out.toByteArray()).contains("UTF-8"));

        ByteWriter info = new ByteWriter().writeByte(1).writeByte(MessageType.CLUSTER_INFO_REPLY.code());
        info.writeVarLong(1).writeUtf8("c").writeVarLong(1).writeByte(PartitionerSpec.Kind.HASH.code());
        info.writeVarLong(1).writeUtf8("bad host").writeVarLong(80).writeVarLong(0);
        assertTrue(malformed(info.toByteArray()).contains("host"));
    }
}
