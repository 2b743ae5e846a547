package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * An administration command for the node to carry out: a change of users, roles, grants or the auth switch,
 * which the node writes into the cluster's auth record, or a question about them (docs/auth.md lists the
 * commands). Answered with an {@link AdminReply}, or an {@link ErrorReply} ({@code PERMISSION_DENIED} for anyone
 * but root once auth is on, {@code MALFORMED_FRAME} for an unknown command or a bad argument).
 *
 * @param command e.g. {@code user-add}, {@code role-grant}, {@code auth-enable}
 * @param arguments the command's arguments, in order
 * @param secret a password the command needs ({@code user-add}), or null; never printed
 */
public record AdminRequest(long requestId, String command, List<String> arguments, @Nullable Bytes secret)
        implements ClientRequest {
    /** Keys under this prefix belong to Duro itself: no ordinary read or write reaches them (docs/auth.md). */
    public static final Bytes RESERVED_PREFIX = Bytes.utf8("\u0000duro/");
    /**
     * The key of the cluster's auth record. A client sends admin requests to a replica of its partition, which
     * coordinates the read-modify-write of the record.
     */
    public static final Bytes AUTH_RECORD_KEY = Bytes.utf8("\u0000duro/auth");

    /** Longest command name, in UTF-8 bytes. */
    public static final int COMMAND_MAX_BYTES = 64;
    /** Most arguments. */
    public static final int ARGUMENTS_MAX = 16;
    /** Longest argument, in UTF-8 bytes (a prefix is at most a key). */
    public static final int ARGUMENT_MAX_BYTES = 4096;

    public AdminRequest {
        Objects.requireNonNull(command, "command");
        arguments = List.copyOf(arguments);
        checkArgument(utf8Bytes(command) <= COMMAND_MAX_BYTES, "command longer than %s bytes", COMMAND_MAX_BYTES);
        checkArgument(arguments.size() <= ARGUMENTS_MAX, "more than %s arguments", ARGUMENTS_MAX);
        for (String argument : arguments) {
            checkArgument(
                    utf8Bytes(argument) <= ARGUMENT_MAX_BYTES, "argument longer than %s bytes", ARGUMENT_MAX_BYTES);
        }
        checkArgument(
                secret == null || secret.size() <= AuthenticateRequest.PASSWORD_MAX_BYTES,
                "secret longer than %s bytes",
                AuthenticateRequest.PASSWORD_MAX_BYTES);
    }

    private static int utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    @Override
    public MessageType type() {
        return MessageType.ADMIN_REQUEST;
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "AdminRequest[requestId=" + requestId + ", command=" + command + ", arguments=" + arguments
                + (secret == null ? "" : ", secret=(hidden)") + "]";
    }
}
