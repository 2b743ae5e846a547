package dev.duro.core.wire;

import java.util.Objects;

/**
 * A server's refusal of a request. The connection stays usable: an error answers one request only.
 *
 * @param requestId the id of the refused request, or {@link #UNKNOWN_REQUEST} when it could not be read
 * @param message for people and logs; longer messages are cut to {@link #MESSAGE_MAX_CHARS}, because a server
 *     must always be able to send an error
 */
public record ErrorReply(long requestId, ErrorCode code, String message) implements ServerReply {
    public static final long UNKNOWN_REQUEST = 0;
    public static final int MESSAGE_MAX_CHARS = 2000;

    public ErrorReply {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        if (message.length() > MESSAGE_MAX_CHARS) {
            int cut = MESSAGE_MAX_CHARS - 1;
            if (Character.isHighSurrogate(message.charAt(cut - 1))) {
                cut--; // never split a surrogate pair: it could not be encoded
            }
            message = message.substring(0, cut) + "…";
        }
    }

    @Override
    public MessageType type() {
        return MessageType.ERROR_REPLY;
    }
}
