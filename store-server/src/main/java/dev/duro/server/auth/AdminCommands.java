package dev.duro.server.auth;

import dev.duro.core.Bytes;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.annotation.Nullable;

/**
 * The administration commands (docs/auth.md, "Commands") as changes of the {@link AuthTable}. Preparing a change
 * checks its arguments and does the slow part (hashing a new password) once; applying it to the table of the
 * moment may still refuse (the user exists already), and is repeated on a fresh table when the read-modify-write
 * of the record aborts.
 */
public final class AdminCommands {
    /** Reads the switch and every user, role and grant (no password hashes). */
    public static final String STATUS = "auth-status";
    /** A node's internal read of the whole record, for nodes that hold no replica of its partition. */
    public static final String TABLE = "auth-table";

    /** Commands and their arguments, as the usage shows them. */
    private static final Map<String, List<String>> CHANGES = Map.ofEntries(
            Map.entry("user-add", List.of("NAME")),
            Map.entry("user-remove", List.of("NAME")),
            Map.entry("user-grant-role", List.of("NAME", "ROLE")),
            Map.entry("user-revoke-role", List.of("NAME", "ROLE")),
            Map.entry("role-add", List.of("ROLE")),
            Map.entry("role-remove", List.of("ROLE")),
            Map.entry("role-grant", List.of("ROLE", "read|readwrite", "PREFIX")),
            Map.entry("role-revoke", List.of("ROLE", "PREFIX")),
            Map.entry("auth-enable", List.of()),
            Map.entry("auth-disable", List.of()));

    /** A checked change, ready to apply to the table of the moment. */
    public record Change(String description, UnaryOperator<AuthTable> apply) {}

    private AdminCommands() {}

    public static boolean isChange(String command) {
        return CHANGES.containsKey(command);
    }

    public static boolean isQuery(String command) {
        return command.equals(STATUS) || command.equals(TABLE);
    }

    /**
     * Checks {@code command}'s arguments and prepares it.
     *
     * @param secret the new user's password for {@code user-add} (null: the user authenticates by certificate only)
     * @throws AdminException naming the command or argument that is wrong
     */
    public static Change prepare(String command, List<String> args, @Nullable Bytes secret, Passwords passwords) {
        List<String> usage = CHANGES.get(command);
        if (usage == null) {
            throw new AdminException(
                    "unknown admin command '" + command + "'; known: " + CHANGES.keySet() + ", " + STATUS);
        }
        if (args.size() != usage.size()) {
            throw new AdminException(command + " takes " + usage + ", got " + args.size() + " arguments");
        }
        if (secret != null && !command.equals("user-add")) {
            throw new AdminException(command + " takes no password");
        }
        String description = command + " " + String.join(" ", args);
        return switch (command) {
            case "user-add" -> {
                PasswordHash hash = secret == null ? null : passwords.hash(secret);
                yield new Change(description, table -> table.withUser(args.get(0), hash));
            }
            case "user-remove" -> new Change(description, table -> table.withoutUser(args.get(0)));
            case "user-grant-role" -> new Change(
                    description, table -> table.withUserRole(args.get(0), args.get(1), true));
            case "user-revoke-role" -> new Change(
                    description, table -> table.withUserRole(args.get(0), args.get(1), false));
            case "role-add" -> new Change(description, table -> table.withRole(args.get(0)));
            case "role-remove" -> new Change(description, table -> table.withoutRole(args.get(0)));
            case "role-grant" -> {
                Permission permission = Permission.fromWord(args.get(1));
                if (permission == null) {
                    throw new AdminException("permission must be 'read' or 'readwrite', was '" + args.get(1) + "'");
                }
                Bytes prefix = Bytes.utf8(args.get(2));
                yield new Change(description, table -> table.withGrant(args.get(0), permission, prefix));
            }
            case "role-revoke" -> new Change(
                    description, table -> table.withoutGrant(args.get(0), Bytes.utf8(args.get(1))));
            case "auth-enable" -> new Change(description, table -> table.withEnabled(true));
            case "auth-disable" -> new Change(description, table -> table.withEnabled(false));
            default -> throw new IllegalStateException("command " + command + " listed but not handled");
        };
    }
}
