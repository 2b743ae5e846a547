package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.node.PeerMessageCodec;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.WireCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes no well-behaved client sends, written straight onto a socket: each gets a typed error naming what was
 * wrong, and the connection keeps working wherever the stream can still be framed. Meanwhile a real client
 * commits continuously; none of its commits may fail, during or after.
 */
class BadInputTest {
    private static final WireCodec CODEC = PeerMessageCodec.wireCodec(Limits.DEFAULT);

    @TempDir
    static Path data;

    private static TestCluster cluster;
    private UniqueKeyWriters bystander;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster =
                TestCluster.builder(data).nodes(3).partitions(2).replication(3).start();
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void startBystander() {
        bystander = new UniqueKeyWriters(cluster.newClient(), "bystander-", 1);
        bystander.awaitMoreCommits(3, "before the bad input");
    }

    @AfterEach
    void bystanderNeverFailed() {
        try {
            bystander.awaitMoreCommits(5, "after the bad input");
        } finally {
            bystander.stop();
        }
        assertEquals(List.of(), bystander.failures());
        assertEquals(Set.of(), bystander.uncertain().keySet(), "every commit of the other client succeeded");
    }

    @Test
    void anOversizeKeyIsRefusedNamingTheKeyLimitAndTheConnectionGoesOn() throws IOException {
        Bytes key = Bytes.wrap(new byte[Limits.DEFAULT.keyBytesMax() + 1]);
        try (RawConnection connection = connect()) {
            ErrorReply read = expectError(connection.call(new ReadRequest(11, key, ReadRequest.LATEST, 0)), 11);
            assertEquals(ErrorCode.LIMIT_EXCEEDED, read.code());
            assertTrue(read.message().contains("limits.key-bytes-max"), read.message());

            ErrorReply commit = expectError(connection.call(commit(12, 0, Write.put(key, Bytes.utf8("v")))), 12);
            assertEquals(ErrorCode.LIMIT_EXCEEDED, commit.code());
            assertTrue(commit.message().contains("limits.key-bytes-max"), commit.message());

            assertStillServes(connection);
        }
    }

    @Test
    void anOversizeValueIsRefusedNamingTheValueLimitAndTheConnectionGoesOn() throws IOException {
        Bytes value = Bytes.wrap(new byte[Limits.DEFAULT.valueBytesMax() + 1]);
        try (RawConnection connection = connect()) {
            ErrorReply error = expectError(connection.call(commit(21, 0, Write.put(Bytes.utf8("big"), value))), 21);
            assertEquals(ErrorCode.LIMIT_EXCEEDED, error.code());
            assertTrue(error.message().contains("limits.value-bytes-max"), error.message());
            assertStillServes(connection);
        }
    }

    @Test
    void garbageFramesAreRefusedAsMalformedAndTheConnectionGoesOn() throws IOException {
        try (RawConnection connection = connect()) {
            connection.sendFrame(new byte[] {1, 0x7f, 3, 4, 5}); // an unknown message type
            assertEquals(
                    ErrorCode.MALFORMED_FRAME,
                    expectError(connection.receive(), 0).code());

            byte[] overlongNumber = new byte[14];
            Arrays.fill(overlongNumber, (byte) 0xff);
            overlongNumber[0] = 1;
            overlongNumber[1] = 0x01; // a read request whose request id never ends
            connection.sendFrame(overlongNumber);
            assertEquals(
                    ErrorCode.MALFORMED_FRAME,
                    expectError(connection.receive(), 0).code());

            connection.sendFrame(new byte[0]);
            assertEquals(
                    ErrorCode.MALFORMED_FRAME,
                    expectError(connection.receive(), 0).code());

            connection.send(new ErrorReply(31, ErrorCode.INTERNAL, "a reply, sent to a server"));
            ErrorReply refused = expectError(connection.receive(), 31);
            assertEquals(ErrorCode.MALFORMED_FRAME, refused.code());
            assertTrue(refused.message().contains("ERROR_REPLY"), refused.message());

            assertStillServes(connection);
        }
    }

    @Test
    void randomGarbageIsAnsweredWithATypedErrorOrAReplyAndTheConnectionGoesOn() throws IOException {
        Random random = new Random(20_261_122);
        int errors = 0;
        try (RawConnection connection = connect()) {
            for (int i = 0; i < 200; i++) {
                byte[] garbage = new byte[2 + random.nextInt(63)];
                random.nextBytes(garbage);
                if (i % 2 == 0) {
                    garbage[0] = (byte) WireCodec.PROTOCOL_VERSION; // get past the version byte half the time
                }
                if (garbage[1] == 0x21 || garbage[1] == 0x22) {
                    garbage[1] = 0x7f; // peer messages (votes, frontiers) are one-way: nothing would answer them
                }
                connection.sendFrame(garbage);
                ServerReply reply = connection.receive();
                if (reply instanceof ErrorReply error) {
                    errors++;
                    assertTrue(error.code() != ErrorCode.INTERNAL, () -> error + " for " + Arrays.toString(garbage));
                }
            }
            assertStillServes(connection);
        }
        assertTrue(errors > 150, "nearly all garbage is refused: " + errors);
    }

    @Test
    void aFrameOfAnotherProtocolVersionIsRefusedAsUnsupported() throws IOException {
        try (RawConnection connection = connect()) {
            byte[] frame = CODEC.encode(new ClusterInfoRequest(41));
            frame[0] = (byte) (WireCodec.PROTOCOL_VERSION + 1);
            connection.sendFrame(frame);
            ErrorReply error = expectError(connection.receive(), 0);
            assertEquals(ErrorCode.UNSUPPORTED_VERSION, error.code());
            assertTrue(error.message().contains("wire protocol"), error.message());
            assertStillServes(connection);
        }
    }

    @Test
    void aTruncatedFrameIsRefusedAsMalformedAnsweringItsRequestAndTheConnectionGoesOn() throws IOException {
        byte[] whole = CODEC.encode(commit(51, 0, Write.put(Bytes.utf8("truncated"), Bytes.utf8("value"))));
        try (RawConnection connection = connect()) {
            for (int length : List.of(whole.length - 1, whole.length / 2, 4)) {
                connection.sendFrame(Arrays.copyOf(whole, length));
                ErrorReply error = expectError(connection.receive(), 51);
                assertEquals(ErrorCode.MALFORMED_FRAME, error.code(), "cut to " + length + " bytes");
            }
            assertStillServes(connection);
        }
    }

    @Test
    void aCommitForAPartitionTheClusterDoesNotHaveIsRefused() throws IOException {
        try (RawConnection connection = connect()) {
            int missing = cluster.partitionCount() + 5;
            ErrorReply error = expectError(
                    connection.call(commit(61, missing, Write.put(Bytes.utf8("nowhere"), Bytes.utf8("v")))), 61);
            assertEquals(ErrorCode.UNKNOWN_PARTITION, error.code());
            assertTrue(error.message().contains("partition " + missing), error.message());
            assertStillServes(connection);
        }
    }

    @Test
    void aFrameLongerThanTheServerAcceptsIsRefusedNamingTheLimitBeforeTheConnectionCloses() throws IOException {
        try (RawConnection connection = connect()) {
            connection.sendBytes(
                    ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
            ErrorReply error = expectError(connection.receive(), ErrorReply.UNKNOWN_REQUEST);
            assertEquals(ErrorCode.LIMIT_EXCEEDED, error.code());
            assertTrue(error.message().contains("server.frame-bytes-max"), error.message());
            assertTrue(connection.closedByServer(), "the rest of the stream cannot be framed");
        }
        try (RawConnection fresh = connect()) {
            assertStillServes(fresh);
        }
    }

    @Test
    void clientsThatDisconnectMidRequestLeaveTheServerServing() throws IOException {
        byte[] frame = CODEC.encode(commit(71, 0, Write.put(Bytes.utf8("abandoned"), Bytes.utf8("value"))));
        for (int i = 0; i < 20; i++) {
            try (RawConnection halfAFrame = connect()) {
                // The length says more is coming; the client goes away instead.
                halfAFrame.sendBytes(ByteBuffer.allocate(4 + frame.length / 2)
                        .putInt(frame.length)
                        .put(frame, 0, frame.length / 2)
                        .array());
            }
            try (RawConnection halfALength = connect()) {
                halfALength.sendBytes(new byte[] {0, 0});
            }
            try (RawConnection noPatience = connect()) {
                noPatience.sendFrame(frame); // a whole commit, then gone before the outcome
            }
        }
        try (RawConnection fresh = connect()) {
            assertStillServes(fresh);
        }
    }

    // ---- helpers ----

    private static RawConnection connect() throws IOException {
        return new RawConnection(cluster.clientAddress(cluster.nodeIds().get(0)));
    }

    private static CommitTransaction commit(long requestId, int partition, Write write) {
        TxId tid = new TxId(0x5eed, requestId);
        return new CommitTransaction(
                requestId, tid, List.of(new CommitTransaction.Participant(partition, 0, List.of(), List.of(write))));
    }

    private static ErrorReply expectError(ServerReply reply, long requestId) {
        ErrorReply error = assertInstanceOf(ErrorReply.class, reply);
        assertEquals(requestId, error.requestId(), "the error answers the request it refuses");
        return error;
    }

    /** The connection still answers a well-formed request. */
    private static void assertStillServes(RawConnection connection) throws IOException {
        ServerReply reply = connection.call(new ClusterInfoRequest(99));
        ClusterInfoReply info = assertInstanceOf(ClusterInfoReply.class, reply);
        assertEquals(cluster.partitionCount(), info.partitionCount());
    }
}
