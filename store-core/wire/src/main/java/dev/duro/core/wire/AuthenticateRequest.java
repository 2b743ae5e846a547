package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Authenticates the connection it arrives on as {@code user} (docs/auth.md). Accepted, it is answered with an
 * {@link AdminReply} and every later request on the connection acts for that user; refused, with {@code
 * UNAUTHENTICATED}, and the connection keeps whatever principal it had (none, at first).
 *
 * @param password the password's UTF-8 bytes; sent as is, which is why auth belongs on TLS connections
 */
public record AuthenticateRequest(long requestId, String user, Bytes password) implements ClientRequest {
    /** Longest user name, in UTF-8 bytes. */
    public static final int USER_MAX_BYTES = 255;
    /** Longest password, in bytes. */
    public static final int PASSWORD_MAX_BYTES = 1024;

    public AuthenticateRequest {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        checkArgument(
                user.getBytes(StandardCharsets.UTF_8).length <= USER_MAX_BYTES,
                "user name longer than %s bytes",
                USER_MAX_BYTES);
        checkArgument(password.size() <= PASSWORD_MAX_BYTES, "password longer than %s bytes", PASSWORD_MAX_BYTES);
    }

    @Override
    public MessageType type() {
        return MessageType.AUTHENTICATE_REQUEST;
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "AuthenticateRequest[requestId=" + requestId + ", user=" + user + "]";
    }
}
