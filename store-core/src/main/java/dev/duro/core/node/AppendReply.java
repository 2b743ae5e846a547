package dev.duro.core.node;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.wire.MessageType;
import dev.duro.core.wire.PeerMessage;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The answer to an {@link AppendMessage} with the same {@code id}.
 *
 * @param detail what went wrong, for the sender's log; empty when {@link Status#APPENDED}
 */
public record AppendReply(long id, Status status, String detail) implements PeerMessage {
    /** The longest detail carried, in UTF-8 bytes. */
    public static final int DETAIL_MAX_BYTES = 1024;
    /** A longer detail is cut to this many chars, which UTF-8 encodes in at most {@link #DETAIL_MAX_BYTES}. */
    private static final int DETAIL_MAX_CHARS = DETAIL_MAX_BYTES / 4;

    /** What became of the commands. Codes are stable and append-only. */
    public enum Status {
        /** The entry holding the commands is committed. */
        APPENDED(0),
        /** This node does not lead the partition: nothing was appended. */
        NOT_LEADER(1),
        /** The leader's queue for the partition is full ({@code raft.queued-bytes-max}): nothing was appended. */
        OVERLOADED(2),
        /** The leader queued them, but their entry failed (it stepped down, or is closing): they may be in the log. */
        FAILED(3);

        private final int code;

        Status(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        /** The status with {@code code}, or null if none has it. */
        public static @Nullable Status fromCode(int code) {
            for (Status status : values()) {
                if (status.code == code) {
                    return status;
                }
            }
            return null;
        }
    }

    public AppendReply {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(detail, "detail");
        checkArgument(id >= 0, "append id must not be negative: %s", id);
        if (detail.length() > DETAIL_MAX_CHARS) {
            int cut = DETAIL_MAX_CHARS;
            if (Character.isHighSurrogate(detail.charAt(cut - 1))) {
                cut--; // never split a surrogate pair: it could not be encoded
            }
            detail = detail.substring(0, cut);
        }
    }

    @Override
    public MessageType type() {
        return MessageType.APPEND_REPLY;
    }
}
