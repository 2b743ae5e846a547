package dev.duro.core.wire;

import javax.annotation.Nullable;

/**
 * The message type byte of a frame. Codes are part of the protocol: never change or reuse one, only append.
 * Requests use 0x01–0x0F, replies 0x11–0x1F, server-to-server messages 0x21–0x2F; 0 is never valid, so a zeroed
 * buffer is rejected.
 */
public enum MessageType {
    READ_REQUEST(0x01),
    COMMIT_TRANSACTION(0x02),
    CLUSTER_INFO_REQUEST(0x03),
    SNAPSHOT_VECTOR_REQUEST(0x04),
    REPLICA_STATUS_REQUEST(0x05),
    MULTI_READ_REQUEST(0x06),
    SNAPSHOT_FETCH_REQUEST(0x07),
    /** A user name and password; the connection acts for that user once it is accepted (docs/auth.md). */
    AUTHENTICATE_REQUEST(0x08),
    /** A user, role or auth-switch change, or a question about them (docs/auth.md). */
    ADMIN_REQUEST(0x09),
    /** The present keys of a range of one partition at a snapshot, with a limit, either way (docs/ranges.md). */
    SCAN_REQUEST(0x0A),
    READ_REPLY(0x11),
    OUTCOME_REPLY(0x12),
    CLUSTER_INFO_REPLY(0x13),
    ERROR_REPLY(0x14),
    SNAPSHOT_VECTOR_REPLY(0x15),
    REPLICA_STATUS_REPLY(0x16),
    MULTI_READ_REPLY(0x17),
    SNAPSHOT_OFFER(0x18),
    /** The answer to an {@code AUTHENTICATE_REQUEST} or an {@code ADMIN_REQUEST} that succeeded. */
    ADMIN_REPLY(0x19),
    /** The answer to a {@code SCAN_REQUEST}. */
    SCAN_REPLY(0x1A),
    VOTE(0x21),
    /** 0x22 carried frontiers with a list of recent global commits; retired for this dependency-vector form. */
    FRONTIER(0x23),
    /** Commands a node hands to the leader of a partition, for its log (docs/replication.md, "Appends go to the leader"). */
    APPEND(0x24),
    /** The leader's answer to an {@code APPEND}. */
    APPEND_REPLY(0x25);

    private final int code;

    MessageType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Whether messages of this type start their body with a request id (client requests and their replies). */
    public boolean hasRequestId() {
        return code < VOTE.code;
    }

    /** Whether this is a message between nodes, framed only by a {@link WireCodec} that has a {@link PeerCodec}. */
    public boolean isPeer() {
        return code >= VOTE.code;
    }

    /** {@link #values()} copies its array at each call; this runs for every frame. */
    private static final MessageType[] ALL = values();

    /** The type with this wire code, or null if there is none. */
    public static @Nullable MessageType fromCode(int code) {
        for (MessageType type : ALL) {
            if (type.code == code) {
                return type;
            }
        }
        return null;
    }
}
