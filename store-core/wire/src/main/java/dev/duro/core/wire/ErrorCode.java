package dev.duro.core.wire;

import javax.annotation.Nullable;

/**
 * Why a server refused a request. The numeric codes are part of the protocol: append new ones, never renumber.
 * A client that receives a code it does not know reads it as {@link #INTERNAL} (see {@link WireCodec}).
 */
public enum ErrorCode {
    /** A key, value or transaction broke a configured limit; the message names it. */
    LIMIT_EXCEEDED(1),
    /** The request frame could not be decoded. */
    MALFORMED_FRAME(2),
    /** The request names a partition this cluster does not have. */
    UNKNOWN_PARTITION(3),
    /** The snapshot asked for has been garbage-collected; retry the transaction. */
    SNAPSHOT_TOO_OLD(4),
    /** The replica has not reached the snapshot or minimum version asked for in time; retry, maybe elsewhere. */
    SNAPSHOT_NOT_READY(5),
    /** The server is starting, recovering or has no leader for the partition yet; retry later. */
    NOT_READY(6),
    /** The server sheds load; retry with backoff. */
    OVERLOADED(7),
    /** The frame's protocol version is not one this server speaks. */
    UNSUPPORTED_VERSION(8),
    /** A failure inside the server; the message says what. */
    INTERNAL(9),
    /**
     * The transaction id was delivered before and its outcome is no longer retained (it may have committed):
     * the commit was not certified again. The same at every replica; see docs/window-safety.md.
     */
    OUTCOME_UNKNOWN(10),
    /**
     * The connection's verified identity may not send this message: a peer message (vote, frontier, snapshot fetch)
     * from a connection that is not an authenticated cluster node. The message had no effect; see
     * docs/security.md.
     */
    FORBIDDEN(11),
    /**
     * The connection's principal has no grant that covers a key the request reads or writes, or the request is an
     * administration request from someone other than root; the message names the key (or its prefix) and the
     * principal. A refused commit appended nothing (docs/auth.md).
     */
    PERMISSION_DENIED(12),
    /**
     * Authentication is on and the connection has not authenticated, or its credentials were refused. The
     * connection stays usable: authenticate again on it.
     */
    UNAUTHENTICATED(13);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The error with this wire code, or null if this build does not know it. */
    public static @Nullable ErrorCode fromCode(long code) {
        for (ErrorCode error : values()) {
            if (error.code == code) {
                return error;
            }
        }
        return null;
    }
}
