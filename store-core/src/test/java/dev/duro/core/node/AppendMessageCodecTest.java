package dev.duro.core.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.wire.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checks an {@link AppendMessage} and its {@link AppendReply} get when read from another node. */
class AppendMessageCodecTest {
    private static final WireCodec CODEC = PeerMessageCodec.wireCodec(Limits.DEFAULT);
    /** The frame's protocol version and type come before the body. */
    private static final int BODY = 2;

    private static CommitRequest localTo(int partition) {
        Bytes key = Bytes.utf8("k");
        return new CommitRequest(new TxId(7, 1), List.of(partition), 3, List.of(key), List.of(Write.put(key, key)));
    }

    @Test
    void anAppendCarriesAnEntryAsItsCommitterJoinedIt() {
        byte[] entry = new LogEntryCodec(Limits.DEFAULT).encode(List.of(localTo(0), localTo(0)));
        AppendMessage append = new AppendMessage(300, 0, Bytes.wrap(entry));
        byte[] frame = CODEC.encode(append);
        // id 300 as a two-byte varint, the partition, the entry's length and the entry itself, byte for byte
        assertEquals(BODY + 2 + 1 + 1 + entry.length, frame.length);
        assertEquals(0, frame[BODY + 2], "partition");
        assertEquals(entry.length, frame[BODY + 3], "entry length");
        assertArrayEquals(entry, Arrays.copyOfRange(frame, BODY + 4, frame.length));
        assertEquals(append, CODEC.decode(frame));
    }

    @Test
    void anAppendCarriesANonEmptyEntry() {
        byte[] frame = CODEC.encode(new AppendMessage(1, 0, Bytes.wrap(new byte[] {2})));
        assertEquals(1, frame[BODY + 2], "entry length");
        byte[] empty = Arrays.copyOf(frame, frame.length - 1);
        empty[BODY + 2] = 0;
        MalformedInputException refused = assertThrows(MalformedInputException.class, () -> CODEC.decode(empty));
        assertTrue(refused.getMessage().contains("empty"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new AppendMessage(1, 0, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new AppendMessage(-1, 0, Bytes.wrap(new byte[] {2})));
    }

    @Test
    void anAppendForAPartitionBeyondTheLimitIsMalformed() {
        byte[] last = appendFrame(Limits.PARTITIONS_MAX - 1);
        assertEquals(new AppendMessage(1, Limits.PARTITIONS_MAX - 1, Bytes.wrap(new byte[] {2})), CODEC.decode(last));
        byte[] beyond = appendFrame(Limits.PARTITIONS_MAX);
        assertThrows(MalformedInputException.class, () -> CODEC.decode(beyond));
    }

    /** An append of id 1 and a one-byte entry for {@code partition}, written by hand: its constructor refuses more. */
    private static byte[] appendFrame(int partition) {
        byte[] header = Arrays.copyOf(CODEC.encode(new AppendMessage(1, 0, Bytes.wrap(new byte[] {2}))), BODY);
        ByteWriter frame = new ByteWriter().writeRaw(header).writeVarLong(1).writeVarLong(partition);
        return frame.writeBytes(Bytes.wrap(new byte[] {2})).toByteArray();
    }

    @Test
    void anUnknownStatusIsMalformed() {
        byte[] frame = CODEC.encode(new AppendReply(5, AppendReply.Status.APPENDED, ""));
        assertEquals(0, frame[BODY + 1], "status");
        frame[BODY + 1] = 9;
        MalformedInputException refused = assertThrows(MalformedInputException.class, () -> CODEC.decode(frame));
        assertTrue(refused.getMessage().contains("unknown append status 9"), refused.getMessage());
    }

    @Test
    void statusCodesAreStable() {
        assertEquals(0, AppendReply.Status.APPENDED.code());
        assertEquals(1, AppendReply.Status.NOT_LEADER.code());
        assertEquals(2, AppendReply.Status.OVERLOADED.code());
        assertEquals(3, AppendReply.Status.FAILED.code());
        for (AppendReply.Status status : AppendReply.Status.values()) {
            assertEquals(status, AppendReply.Status.fromCode(status.code()));
        }
    }

    @Test
    void aLongDetailIsCutToWhatTheReaderAccepts() {
        AppendReply reply = new AppendReply(5, AppendReply.Status.FAILED, "\u20ac".repeat(5_000));
        assertTrue(reply.detail().getBytes(StandardCharsets.UTF_8).length <= AppendReply.DETAIL_MAX_BYTES);
        assertEquals(reply, CODEC.decode(CODEC.encode(reply)));
        // A pair of surrogates across the cut stays whole or goes whole.
        AppendReply split = new AppendReply(5, AppendReply.Status.FAILED, "a" + "\uD83D\uDC4B".repeat(300));
        assertEquals(split, CODEC.decode(CODEC.encode(split)));
    }
}
