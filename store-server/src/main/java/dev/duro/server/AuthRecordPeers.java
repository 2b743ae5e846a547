package dev.duro.server;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.Message;
import dev.duro.core.wire.WireCodec;
import dev.duro.server.auth.AdminCommands;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.AuthTableCodec;
import dev.duro.server.tls.NodeTls;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The auth record between nodes: a node that cannot read it from a replica of its own asks the other replicas of
 * the record's partition ({@code auth-table} admin request over the client protocol), and each answers from its
 * own replica. Both sides of the answer's payload are here: the key's version, then the encoded record (empty:
 * never written). Which table this node enforces is {@link AuthRecord}'s business.
 */
final class AuthRecordPeers {
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final String self;
    private final int partition;
    private final List<String> replicaNodes;
    private final WireCodec codec;
    private final Map<String, ServerConfig.Node> nodes;
    /** This node's TLS, for reading the record from another node; null with plaintext links. */
    private final @Nullable NodeTls tls;

    private final Duration waitMax;
    private final int frameBytesMax;

    AuthRecordPeers(
            String self,
            int partition,
            List<String> replicaNodes,
            WireCodec codec,
            Map<String, ServerConfig.Node> nodes,
            @Nullable NodeTls tls,
            Duration waitMax,
            int frameBytesMax) {
        this.self = self;
        this.partition = partition;
        this.replicaNodes = List.copyOf(replicaNodes);
        this.codec = codec;
        this.nodes = nodes;
        this.tls = tls;
        this.waitMax = waitMax;
        this.frameBytesMax = frameBytesMax;
    }

    /** The {@code auth-table} answer for {@code read}: its version, then the encoded record (empty: never written). */
    static Bytes payload(AuthRecord.Versioned read) {
        byte[] record = read.version() == 0 && read.table().equals(AuthTable.EMPTY)
                ? new byte[0]
                : AuthTableCodec.encode(read.table());
        byte[] payload = new byte[Long.BYTES + record.length];
        java.nio.ByteBuffer.wrap(payload).putLong(read.version()).put(record);
        return Bytes.wrap(payload);
    }

    /**
     * Asks each other replica of the record's partition in turn ({@code auth-table}); the first answer wins. Each
     * answers from its own replica at a linearizable snapshot, so the record is as fresh as a local read's.
     */
    AuthRecord.Versioned read() {
        StringBuilder failures = new StringBuilder();
        for (String node : replicaNodes) {
            if (node.equals(self)) {
                continue;
            }
            try {
                AdminReply reply = askForTable(node, Objects.requireNonNull(nodes.get(node), "a configured node"));
                if (reply.payload() == null) {
                    throw new IOException("its answer carries no record");
                }
                byte[] payload = reply.payload().toByteArray();
                // The payload is the version of the key, then the record.
                long version = java.nio.ByteBuffer.wrap(payload, 0, Long.BYTES).getLong();
                byte[] record = java.util.Arrays.copyOfRange(payload, Long.BYTES, payload.length);
                return new AuthRecord.Versioned(
                        record.length == 0 ? AuthTable.EMPTY : AuthTableCodec.decode(record), version);
            } catch (IOException | DuroException | IndexOutOfBoundsException e) {
                failures.append(failures.isEmpty() ? "" : "; ")
                        .append(node)
                        .append(": ")
                        .append(e.getMessage());
            }
        }
        throw new IllegalStateException(
                "no replica of partition " + partition + " gave the auth record (" + failures + ")");
    }

    private AdminReply askForTable(String id, ServerConfig.Node node) throws IOException {
        try (Socket socket = PeerSockets.connect(tls, id, node.address(), CONNECT_TIMEOUT_MILLIS)) {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, waitMax.toMillis() + CONNECT_TIMEOUT_MILLIS));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            byte[] request = codec.encode(new AdminRequest(1, AdminCommands.TABLE, List.of(), null));
            out.writeInt(request.length);
            out.write(request);
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            int length = in.readInt();
            if (length <= 0 || length > frameBytesMax) {
                throw new IOException("answered with a frame of " + length + " bytes");
            }
            Message answer = codec.decode(in.readNBytes(length));
            if (answer instanceof ErrorReply error) {
                throw new IOException("refused: " + error.code() + ": " + error.message());
            }
            if (!(answer instanceof AdminReply reply)) {
                throw new IOException("answered with " + answer.type());
            }
            return reply;
        }
    }
}
