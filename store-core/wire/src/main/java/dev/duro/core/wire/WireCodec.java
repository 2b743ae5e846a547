package dev.duro.core.wire;

import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import dev.duro.core.codec.ValueCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import javax.annotation.Nullable;

/**
 * Encodes {@link Message}s as frames and decodes them again. A frame is one protocol version byte, one {@link
 * MessageType} code byte and the message body; the transport delimits frames, so a body must be consumed exactly.
 *
 * <p>Decoding accepts any byte string and either returns a message or throws one of three typed errors:
 *
 * <ul>
 *   <li>{@link UnsupportedVersionException} when the first byte is not {@link #PROTOCOL_VERSION};
 *   <li>{@link MalformedInputException} when the bytes are not a valid frame: truncated, trailing bytes, an
 *       unknown type or tag, a length or count larger than the rest of the frame, a value out of the protocol's
 *       range;
 *   <li>{@link LimitExceededException} naming the limit when a key, value or transaction that is fully present
 *       in the frame breaks the configured {@link Limits}.
 * </ul>
 *
 * Fields are read in order and the first problem wins. Counts are checked against the bytes left and the limits
 * before anything is allocated, so a decoder allocates little more than the frame's own size.
 *
 * <p>The encoder writes what it is given and does not apply limits: a receiver applies its own.
 */
public final class WireCodec {
    public static final int PROTOCOL_VERSION = 1;

    private final ValueCodec core;
    private final ClientMessageCodec client;
    private final ClusterInfoCodec clusterInfo;
    private final @Nullable PeerCodec peers;

    /** A client's codec: it frames no {@link PeerMessage}, and a peer frame it receives is malformed. */
    public WireCodec(Limits limits) {
        this(limits, null);
    }

    /** A node's codec when {@code peers} is given: it also frames the messages nodes exchange. */
    public WireCodec(Limits limits, @Nullable PeerCodec peers) {
        this.core = new ValueCodec(limits);
        this.client = new ClientMessageCodec(core);
        this.clusterInfo = new ClusterInfoCodec(core);
        this.peers = peers;
    }

    public Limits limits() {
        return core.limits();
    }

    public byte[] encode(Message message) {
        ByteWriter out = new ByteWriter();
        out.writeByte(PROTOCOL_VERSION).writeByte(message.type().code());
        writeBody(out, message);
        return out.toByteArray();
    }

    private void writeBody(ByteWriter out, Message message) {
        if (message instanceof ReadRequest request) {
            ClientMessageCodec.writeReadRequest(out, request);
        } else if (message instanceof MultiReadRequest request) {
            ClientMessageCodec.writeMultiReadRequest(out, request);
        } else if (message instanceof MultiReadReply reply) {
            ClientMessageCodec.writeMultiReadReply(out, reply);
        } else if (message instanceof ScanRequest request) {
            ClientMessageCodec.writeScanRequest(out, request);
        } else if (message instanceof ScanReply reply) {
            ClientMessageCodec.writeScanReply(out, reply);
        } else if (message instanceof CommitTransaction commit) {
            ClientMessageCodec.writeCommitTransaction(out, commit);
        } else if (message instanceof ClusterInfoRequest request) {
            out.writeVarLong(request.requestId());
        } else if (message instanceof ReadReply reply) {
            ClientMessageCodec.writeReadReply(out, reply);
        } else if (message instanceof OutcomeReply reply) {
            ClientMessageCodec.writeOutcomeReply(out, reply);
        } else if (message instanceof ClusterInfoReply reply) {
            ClusterInfoCodec.write(out, reply);
        } else if (message instanceof ErrorReply reply) {
            ClientMessageCodec.writeErrorReply(out, reply);
        } else if (message instanceof SnapshotVectorRequest request) {
            out.writeVarLong(request.requestId());
            out.writeBoolean(request.linearizable());
            ValueCodec.writeNumbers(out, request.minimum());
        } else if (message instanceof SnapshotVectorReply reply) {
            out.writeVarLong(reply.requestId());
            ValueCodec.writeNumbers(out, reply.cut());
        } else if (message instanceof ReplicaStatusRequest request) {
            out.writeVarLong(request.requestId());
            out.writeVarLong(request.partition());
        } else if (message instanceof ReplicaStatusReply reply) {
            out.writeVarLong(reply.requestId());
            out.writeVarLong(reply.partition());
            out.writeVarLong(reply.snapshotCounter());
            out.writeLong(reply.contentDigest());
            out.writeVarLong(reply.pendingCount());
            out.writeUtf8(reply.node());
            out.writeUtf8(reply.leader());
            out.writeVarLong(reply.term());
            out.writeVarLong(reply.commitIndex() + 1);
            out.writeVarLong(reply.appliedIndex() + 1);
        } else if (message instanceof SnapshotFetchRequest request) {
            out.writeVarLong(request.requestId());
            out.writeVarLong(request.partition());
            out.writeVarLong(request.indexMin());
        } else if (message instanceof SnapshotOffer offer) {
            out.writeVarLong(offer.requestId());
            out.writeVarLong(offer.partition());
            out.writeVarLong(offer.term());
            out.writeVarLong(offer.index());
            out.writeVarLong(offer.bytes());
            out.writeRaw(offer.md5().unsafeArray());
        } else if (message instanceof AuthenticateRequest request) {
            out.writeVarLong(request.requestId());
            out.writeUtf8(request.user());
            out.writeBytes(request.password());
        } else if (message instanceof AdminRequest request) {
            out.writeVarLong(request.requestId());
            out.writeUtf8(request.command());
            out.writeVarLong(request.arguments().size());
            for (String argument : request.arguments()) {
                out.writeUtf8(argument);
            }
            out.writeNullableBytes(request.secret());
        } else if (message instanceof AdminReply reply) {
            out.writeVarLong(reply.requestId());
            out.writeUtf8(reply.text());
            out.writeNullableBytes(reply.payload());
        } else if (message instanceof PeerMessage peer && peers != null) {
            peers.write(out, peer);
        } else {
            throw new IllegalArgumentException(
                    "no encoding for " + message.getClass().getName());
        }
    }

    public Message decode(byte[] frame) {
        return decode(frame, 0, frame.length);
    }

    /** Decodes the frame in {@code frame[offset, offset + length)}. */
    public Message decode(byte[] frame, int offset, int length) {
        ByteReader in = new ByteReader(frame, offset, length);
        if (!in.hasRemaining()) {
            throw new MalformedInputException("empty frame");
        }
        int version = in.readByte();
        if (version != PROTOCOL_VERSION) {
            throw new UnsupportedVersionException("wire protocol", version, PROTOCOL_VERSION);
        }
        int code = in.readByte();
        MessageType type = MessageType.fromCode(code);
        if (type == null) {
            throw new MalformedInputException("unknown message type 0x" + Integer.toHexString(code));
        }
        Message message = readBody(in, type);
        if (in.hasRemaining()) {
            in.expectEnd(type + " frame"); // named only when it fails: this runs for every frame
        }
        return message;
    }

    private Message readBody(ByteReader in, MessageType type) {
        return switch (type) {
            case READ_REQUEST -> client.readReadRequest(in);
            case MULTI_READ_REQUEST -> client.readMultiReadRequest(in);
            case MULTI_READ_REPLY -> client.readMultiReadReply(in);
            case COMMIT_TRANSACTION -> client.readCommitTransaction(in);
            case SCAN_REQUEST -> client.readScanRequest(in);
            case SCAN_REPLY -> client.readScanReply(in);
            case CLUSTER_INFO_REQUEST -> new ClusterInfoRequest(in.readVarLong());
            case SNAPSHOT_VECTOR_REQUEST -> new SnapshotVectorRequest(
                    in.readVarLong(),
                    in.readBoolean(),
                    ValueCodec.readNumbers(in, Limits.PARTITIONS_MAX, "cut minimum"));
            case SNAPSHOT_VECTOR_REPLY -> readSnapshotVector(in);
            case REPLICA_STATUS_REQUEST -> new ReplicaStatusRequest(
                    in.readVarLong(), in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition"));
            case REPLICA_STATUS_REPLY -> readReplicaStatus(in);
            case SNAPSHOT_FETCH_REQUEST -> new SnapshotFetchRequest(
                    in.readVarLong(),
                    in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition"),
                    ValueCodec.readNonNegative(in, "snapshot index minimum"));
            case SNAPSHOT_OFFER -> new SnapshotOffer(
                    in.readVarLong(),
                    in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition"),
                    ValueCodec.readNonNegative(in, "snapshot term"),
                    ValueCodec.readNonNegative(in, "snapshot index"),
                    ValueCodec.readNonNegative(in, "snapshot size"),
                    in.readBytesExactly(SnapshotOffer.MD5_BYTES, "snapshot digest"));
            case AUTHENTICATE_REQUEST -> new AuthenticateRequest(
                    in.readVarLong(),
                    in.readUtf8(AuthenticateRequest.USER_MAX_BYTES, "user"),
                    in.readBytes(AuthenticateRequest.PASSWORD_MAX_BYTES, "password"));
            case ADMIN_REQUEST -> readAdminRequest(in);
            case ADMIN_REPLY -> new AdminReply(
                    in.readVarLong(),
                    in.readUtf8(AdminReply.TEXT_MAX_BYTES, "admin reply text"),
                    in.readNullableBytes(Integer.MAX_VALUE, "admin reply payload"));
            case READ_REPLY -> client.readReadReply(in);
            case OUTCOME_REPLY -> client.readOutcomeReply(in);
            case CLUSTER_INFO_REPLY -> clusterInfo.read(in);
            case ERROR_REPLY -> ClientMessageCodec.readErrorReply(in);
            case VOTE, FRONTIER, APPEND, APPEND_REPLY -> readPeerMessage(type, in);
        };
    }

    private static AdminRequest readAdminRequest(ByteReader in) {
        long requestId = in.readVarLong();
        String command = in.readUtf8(AdminRequest.COMMAND_MAX_BYTES, "admin command");
        int count = in.readLength("admin argument count");
        if (count > AdminRequest.ARGUMENTS_MAX) {
            throw new MalformedInputException(
                    "an admin request has at most " + AdminRequest.ARGUMENTS_MAX + " arguments, not " + count);
        }
        List<String> arguments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            arguments.add(in.readUtf8(AdminRequest.ARGUMENT_MAX_BYTES, "admin argument"));
        }
        return new AdminRequest(
                requestId,
                command,
                arguments,
                in.readNullableBytes(AuthenticateRequest.PASSWORD_MAX_BYTES, "admin secret"));
    }

    private static SnapshotVectorReply readSnapshotVector(ByteReader in) {
        long requestId = in.readVarLong();
        List<Long> cut = ValueCodec.readNumbers(in, Limits.PARTITIONS_MAX, "snapshot vector entry");
        if (cut.isEmpty()) {
            throw new MalformedInputException("a snapshot vector has one entry per partition");
        }
        return new SnapshotVectorReply(requestId, cut);
    }

    private static ReplicaStatusReply readReplicaStatus(ByteReader in) {
        long requestId = in.readVarLong();
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition");
        long snapshotCounter = ValueCodec.readNonNegative(in, "snapshot counter");
        long contentDigest = in.readLong();
        int pendingCount = in.readVarInt(Integer.MAX_VALUE, "pending count");
        String node = in.readUtf8(ReplicaStatusReply.NODE_ID_MAX_BYTES, "replica node");
        if (node.isEmpty()) {
            throw new MalformedInputException("a replica status names its node");
        }
        String leader = in.readUtf8(ReplicaStatusReply.NODE_ID_MAX_BYTES, "replica leader");
        long term = ValueCodec.readNonNegative(in, "replica term");
        long commitIndex = ValueCodec.readNonNegative(in, "replica commit index") - 1;
        long appliedIndex = ValueCodec.readNonNegative(in, "replica applied index") - 1;
        return new ReplicaStatusReply(
                requestId,
                partition,
                snapshotCounter,
                contentDigest,
                pendingCount,
                node,
                leader,
                term,
                commitIndex,
                appliedIndex);
    }

    private PeerMessage readPeerMessage(MessageType type, ByteReader in) {
        if (peers == null) {
            throw new MalformedInputException("a " + type + " message is only exchanged between nodes");
        }
        return peers.read(type, in);
    }

    /**
     * The request id of a client request or reply frame, read without decoding the rest: lets a server address an
     * {@link ErrorReply} to the request whose frame it could not decode or that broke a limit. Empty when the frame
     * is of another version or type, or too short to hold an id.
     */
    public static OptionalLong requestIdOf(byte[] frame) {
        ByteReader in = new ByteReader(frame);
        if (in.remaining() < 3 || in.readByte() != PROTOCOL_VERSION) {
            return OptionalLong.empty();
        }
        MessageType type = MessageType.fromCode(in.readByte());
        if (type == null || !type.hasRequestId()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(in.readVarLong());
        } catch (MalformedInputException truncated) {
            return OptionalLong.empty();
        }
    }
}
