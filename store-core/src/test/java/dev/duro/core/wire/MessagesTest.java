package dev.duro.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.node.CommitRequests;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The message types' own rules: stable codes, validation, and splitting a transaction per partition. */
class MessagesTest {
    @Test
    void messageTypeCodesAreStable() {
        Map<MessageType, Integer> expected = new LinkedHashMap<>();
        expected.put(MessageType.READ_REQUEST, 0x01);
        expected.put(MessageType.COMMIT_TRANSACTION, 0x02);
        expected.put(MessageType.CLUSTER_INFO_REQUEST, 0x03);
        expected.put(MessageType.SNAPSHOT_VECTOR_REQUEST, 0x04);
        expected.put(MessageType.REPLICA_STATUS_REQUEST, 0x05);
        expected.put(MessageType.MULTI_READ_REQUEST, 0x06);
        expected.put(MessageType.SNAPSHOT_FETCH_REQUEST, 0x07);
        expected.put(MessageType.AUTHENTICATE_REQUEST, 0x08);
        expected.put(MessageType.ADMIN_REQUEST, 0x09);
        expected.put(MessageType.SCAN_REQUEST, 0x0A);
        expected.put(MessageType.READ_REPLY, 0x11);
        expected.put(MessageType.OUTCOME_REPLY, 0x12);
        expected.put(MessageType.CLUSTER_INFO_REPLY, 0x13);
        expected.put(MessageType.ERROR_REPLY, 0x14);
        expected.put(MessageType.SNAPSHOT_VECTOR_REPLY, 0x15);
        expected.put(MessageType.REPLICA_STATUS_REPLY, 0x16);
        expected.put(MessageType.MULTI_READ_REPLY, 0x17);
        expected.put(MessageType.SNAPSHOT_OFFER, 0x18);
        expected.put(MessageType.ADMIN_REPLY, 0x19);
        expected.put(MessageType.SCAN_REPLY, 0x1A);
        expected.put(MessageType.VOTE, 0x21);
        expected.put(MessageType.FRONTIER, 0x23);
        expected.put(MessageType.APPEND, 0x24);
        expected.put(MessageType.APPEND_REPLY, 0x25);
        assertEquals(expected.size(), MessageType.values().length);
        for (Map.Entry<MessageType, Integer> entry : expected.entrySet()) {
            assertEquals(entry.getValue(), entry.getKey().code(), entry.getKey().name());
            assertEquals(entry.getKey(), MessageType.fromCode(entry.getValue()));
        }
        assertNull(MessageType.fromCode(0));
        assertTrue(MessageType.ERROR_REPLY.hasRequestId());
        assertFalse(MessageType.VOTE.hasRequestId());
    }

    @Test
    void errorCodesAreStableAndAppendOnly() {
        ErrorCode[] inOrder = {
            ErrorCode.LIMIT_EXCEEDED,
            ErrorCode.MALFORMED_FRAME,
            ErrorCode.UNKNOWN_PARTITION,
            ErrorCode.SNAPSHOT_TOO_OLD,
            ErrorCode.SNAPSHOT_NOT_READY,
            ErrorCode.NOT_READY,
            ErrorCode.OVERLOADED,
            ErrorCode.UNSUPPORTED_VERSION,
            ErrorCode.INTERNAL,
            ErrorCode.OUTCOME_UNKNOWN,
            ErrorCode.FORBIDDEN,
            ErrorCode.PERMISSION_DENIED,
            ErrorCode.UNAUTHENTICATED
        };
        int defined = 0;
        for (int i = 0; i < inOrder.length; i++) {
            if (inOrder[i] != null) {
                defined++;
                assertEquals(i + 1, inOrder[i].code(), inOrder[i].name());
                assertEquals(inOrder[i], ErrorCode.fromCode(i + 1));
            }
        }
        assertEquals(defined, ErrorCode.values().length);
        assertNull(ErrorCode.fromCode(0));
        assertNull(ErrorCode.fromCode(-1));
    }

    @Test
    void partitionerKindCodesAreStable() {
        assertEquals(1, PartitionerSpec.Kind.HASH.code());
        assertEquals(2, PartitionerSpec.Kind.RANGE.code());
        assertNull(PartitionerSpec.Kind.fromCode(0));
    }

    private static CommitTransaction.Participant participant(int partition, long snapshot, String... keys) {
        List<Bytes> reads = keys.length > 0 ? List.of(Bytes.utf8(keys[0])) : List.of();
        return new CommitTransaction.Participant(
                partition, snapshot, reads, List.of(Write.put(Bytes.utf8("w" + partition), Bytes.utf8("v"))));
    }

    @Test
    void aTransactionSplitsIntoOneCommitRequestPerPartition() {
        TxId tid = new TxId(9, 3);
        CommitTransaction commit = new CommitTransaction(
                1, tid, List.of(participant(2, 10, "a"), participant(5, 20), participant(7, 0, "b")));
        assertEquals(List.of(2, 5, 7), commit.partitions());
        assertTrue(commit.isGlobal());
        assertEquals(5, commit.keyCount());
        List<CommitRequest> requests = CommitRequests.of(commit);
        assertEquals(3, requests.size());
        for (int i = 0; i < 3; i++) {
            CommitTransaction.Participant participant = commit.participants().get(i);
            CommitRequest request = requests.get(i);
            assertEquals(tid, request.tid());
            assertEquals(List.of(2, 5, 7), request.participants());
            assertEquals(participant.snapshot(), request.snapshotAt(participant.partition()));
            assertEquals(
                    commit.participants().stream()
                            .map(CommitTransaction.Participant::snapshot)
                            .toList(),
                    request.snapshots());
            assertEquals(participant.readSet(), request.readSet());
            assertEquals(participant.writeSet(), request.writeSet());
        }
        CommitTransaction local = new CommitTransaction(1, tid, List.of(participant(4, 1)));
        assertFalse(local.isGlobal());
        assertFalse(CommitRequests.of(local).get(0).isGlobal());
    }

    @Test
    void aTransactionNeedsAscendingDistinctParticipants() {
        TxId tid = new TxId(1, 1);
        assertThrows(IllegalArgumentException.class, () -> new CommitTransaction(1, tid, List.of()));
        assertThrows(
                IllegalArgumentException.class,
                () -> new CommitTransaction(1, tid, List.of(participant(3, 0), participant(3, 0))));
        assertThrows(
                IllegalArgumentException.class,
                () -> new CommitTransaction(1, tid, List.of(participant(3, 0), participant(1, 0))));
        assertThrows(IllegalArgumentException.class, () -> participant(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> participant(0, -1));
    }

    @Test
    void readRequestsAcceptLatestOrASnapshot() {
        assertTrue(ReadRequest.latest(1, Bytes.EMPTY, 0).readsLatest());
        assertFalse(new ReadRequest(1, Bytes.EMPTY, 0, 0).readsLatest());
        assertThrows(IllegalArgumentException.class, () -> new ReadRequest(1, Bytes.EMPTY, -2, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReadRequest(1, Bytes.EMPTY, 0, -1));
    }

    @Test
    void longErrorMessagesAreCutWithoutSplittingACharacter() {
        String emoji = "😀"; // two chars
        String message = "x".repeat(ErrorReply.MESSAGE_MAX_CHARS - 2) + emoji + "tail";
        ErrorReply reply = new ErrorReply(1, ErrorCode.INTERNAL, message);
        assertTrue(reply.message().length() <= ErrorReply.MESSAGE_MAX_CHARS);
        assertTrue(
                reply.message().endsWith("x…"),
                reply.message().substring(reply.message().length() - 4));
        String fits = "y".repeat(ErrorReply.MESSAGE_MAX_CHARS);
        assertEquals(fits, new ErrorReply(1, ErrorCode.INTERNAL, fits).message());
    }

    @Test
    void hostsArePrintableAsciiAndPortsInRange() {
        assertEquals("db-1.example:7000", new HostPort("db-1.example", 7000).toString());
        assertEquals("[::1]:7000", new HostPort("::1", 7000).toString());
        assertThrows(IllegalArgumentException.class, () -> new HostPort("", 1));
        assertThrows(IllegalArgumentException.class, () -> new HostPort("a b", 1));
        assertThrows(IllegalArgumentException.class, () -> new HostPort("é", 1));
        assertThrows(IllegalArgumentException.class, () -> new HostPort("x".repeat(256), 1));
        assertThrows(IllegalArgumentException.class, () -> new HostPort("h", 0));
        assertThrows(IllegalArgumentException.class, () -> new HostPort("h", 65_536));
    }

    @Test
    void rangeSplitPointsAscendAndMatchThePartitionCount() {
        Bytes a = Bytes.utf8("a");
        Bytes b = Bytes.utf8("b");
        assertThrows(IllegalArgumentException.class, () -> PartitionerSpec.range(List.of(b, a)));
        assertThrows(IllegalArgumentException.class, () -> PartitionerSpec.range(List.of(a, a)));
        assertThrows(IllegalArgumentException.class, () -> PartitionerSpec.range(List.of(Bytes.EMPTY)));
        assertThrows(IllegalArgumentException.class, () -> new PartitionerSpec(PartitionerSpec.Kind.HASH, List.of(a)));

        ClusterInfoReply.PartitionInfo one =
                new ClusterInfoReply.PartitionInfo(List.of(new HostPort("h", 1), new HostPort("i", 2)), 1);
        assertTrue(one.leaderKnown());
        ClusterInfoReply reply = new ClusterInfoReply(
                1, "prod", PartitionerSpec.range(List.of(a, b)), List.of(one, one, one), Limits.DEFAULT);
        assertEquals(3, reply.partitionCount());
        assertThrows(
                IllegalArgumentException.class,
                () -> new ClusterInfoReply(
                        1, "prod", PartitionerSpec.range(List.of(a)), List.of(one, one, one), Limits.DEFAULT));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ClusterInfoReply(1, "prod", PartitionerSpec.hash(), List.of(), Limits.DEFAULT));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ClusterInfoReply.PartitionInfo(List.of(new HostPort("h", 1)), 1));
        assertThrows(IllegalArgumentException.class, () -> new ClusterInfoReply.PartitionInfo(List.of(), -1));
    }

    @Test
    void messagesSortByDirection() {
        MessageGen gen = new MessageGen(3, dev.duro.core.Limits.DEFAULT);
        Set<Class<?>> seen = new HashSet<>();
        for (MessageType type : MessageType.values()) {
            Message message = gen.of(type);
            boolean request = message instanceof ClientRequest;
            boolean reply = message instanceof ServerReply;
            boolean peer = message instanceof PeerMessage;
            assertEquals(1, (request ? 1 : 0) + (reply ? 1 : 0) + (peer ? 1 : 0), type.name());
            assertEquals(type.hasRequestId(), request || reply, type.name());
            assertTrue(seen.add(message.getClass()));
        }
    }
}
