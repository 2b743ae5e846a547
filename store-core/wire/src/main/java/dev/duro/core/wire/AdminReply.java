package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A node's answer to an {@link AuthenticateRequest} or an {@link AdminRequest} it carried out.
 *
 * @param text for people: what was done, or the state asked for
 * @param payload machine-readable data some commands return (the encoded auth record, for a node that holds no
 *     replica of its partition), or null
 */
public record AdminReply(long requestId, String text, @Nullable Bytes payload) implements ServerReply {
    /** Longest text, in UTF-8 bytes. */
    public static final int TEXT_MAX_BYTES = 1 << 20;

    public AdminReply {
        Objects.requireNonNull(text, "text");
        checkArgument(
                text.getBytes(StandardCharsets.UTF_8).length <= TEXT_MAX_BYTES,
                "admin reply text longer than %s bytes",
                TEXT_MAX_BYTES);
    }

    @Override
    public MessageType type() {
        return MessageType.ADMIN_REPLY;
    }
}
