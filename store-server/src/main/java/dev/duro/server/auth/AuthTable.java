package dev.duro.server.auth;

import dev.duro.core.Bytes;
import dev.duro.core.wire.AdminRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * The cluster's users, roles and grants and whether auth is on: the value of the reserved key {@link #KEY}
 * (docs/auth.md). Immutable; each administration change makes the next table ({@code with...} methods), which
 * refuse bad input with an {@link AdminException} naming it.
 *
 * <p>The role {@link #ROOT} is built in: it may do everything, administration included, and is never stored
 * among the roles; a user gets it like any other role.
 *
 * @param users by name
 * @param roles by name: each role's grants, in the order they were made
 */
public record AuthTable(boolean enabled, SortedMap<String, User> users, SortedMap<String, List<Grant>> roles) {
    /** Keys under this prefix belong to Duro itself; no ordinary read or write reaches them. */
    public static final Bytes RESERVED_PREFIX = AdminRequest.RESERVED_PREFIX;
    /** Where the table lives: one key, so a change is one read-modify-write of it. */
    public static final Bytes KEY = AdminRequest.AUTH_RECORD_KEY;
    /** The built-in role that may do everything. */
    public static final String ROOT = "root";
    /** The table of a cluster where no one ever ran an admin command: auth off, nobody, nothing. */
    public static final AuthTable EMPTY = new AuthTable(false, new TreeMap<>(), new TreeMap<>());
    /** Longest user or role name. */
    public static final int NAME_MAX_CHARS = 64;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]{1," + NAME_MAX_CHARS + "}");

    /** A user: the hash of its password (null for one that only authenticates by certificate) and its roles. */
    public record User(String name, @Nullable PasswordHash password, SortedSet<String> roles) {
        public User {
            Objects.requireNonNull(name, "name");
            roles = Collections.unmodifiableSortedSet(new TreeSet<>(roles));
        }
    }

    public AuthTable {
        users = Collections.unmodifiableSortedMap(new TreeMap<>(users));
        SortedMap<String, List<Grant>> copy = new TreeMap<>();
        roles.forEach((name, grants) -> copy.put(name, List.copyOf(grants)));
        roles = Collections.unmodifiableSortedMap(copy);
    }

    public static boolean isReserved(Bytes key) {
        return Grant.startsWith(key, RESERVED_PREFIX);
    }

    /** Whether {@code user} exists and holds the root role. */
    public boolean isRoot(String user) {
        User found = users.get(user);
        return found != null && found.roles().contains(ROOT);
    }

    /**
     * The strongest permission {@code user}'s roles give on {@code key}, or null for none. Reserved keys get
     * none, whoever asks.
     */
    public @Nullable Permission permission(String user, Bytes key) {
        User found = users.get(user);
        if (found == null || isReserved(key)) {
            return null;
        }
        if (found.roles().contains(ROOT)) {
            return Permission.READWRITE;
        }
        Permission best = null;
        for (String role : found.roles()) {
            for (Grant grant : roles.getOrDefault(role, List.of())) {
                if (grant.covers(key) && (best == null || grant.permission().covers(best))) {
                    best = grant.permission();
                }
            }
        }
        return best;
    }

    /** The grants of {@code user}'s roles that cover {@code key}, for error messages. */
    public List<Grant> grantsCovering(String user, Bytes key) {
        List<Grant> covering = new ArrayList<>();
        User found = users.get(user);
        if (found != null) {
            for (String role : found.roles()) {
                for (Grant grant : roles.getOrDefault(role, List.of())) {
                    if (grant.covers(key)) {
                        covering.add(grant);
                    }
                }
            }
        }
        return covering;
    }

    // ---- administration: each returns the next table ----

    public AuthTable withEnabled(boolean on) {
        if (on && !isRoot(ROOT)) {
            throw new AdminException("auth cannot be enabled before a user 'root' with the role 'root' exists"
                    + " (./duro admin user add root; ./duro admin user grant-role root root)");
        }
        return new AuthTable(on, users, roles);
    }

    public AuthTable withUser(String name, @Nullable PasswordHash password) {
        checkName("user", name);
        if (users.containsKey(name)) {
            throw new AdminException("user '" + name + "' already exists");
        }
        SortedMap<String, User> next = new TreeMap<>(users);
        next.put(name, new User(name, password, new TreeSet<>()));
        return new AuthTable(enabled, next, roles);
    }

    public AuthTable withoutUser(String name) {
        existingUser(name);
        if (enabled && name.equals(ROOT)) {
            throw new AdminException("user 'root' cannot be removed while auth is enabled");
        }
        SortedMap<String, User> next = new TreeMap<>(users);
        next.remove(name);
        return new AuthTable(enabled, next, roles);
    }

    public AuthTable withUserRole(String name, String role, boolean granted) {
        User user = existingUser(name);
        if (!role.equals(ROOT)) {
            existingRole(role);
        }
        if (!granted && enabled && name.equals(ROOT) && role.equals(ROOT)) {
            throw new AdminException("user 'root' cannot lose the role 'root' while auth is enabled");
        }
        SortedSet<String> userRoles = new TreeSet<>(user.roles());
        boolean changed = granted ? userRoles.add(role) : userRoles.remove(role);
        if (!changed) {
            throw new AdminException(
                    "user '" + name + "' " + (granted ? "already has" : "does not have") + " the role '" + role + "'");
        }
        SortedMap<String, User> next = new TreeMap<>(users);
        next.put(name, new User(name, user.password(), userRoles));
        return new AuthTable(enabled, next, roles);
    }

    public AuthTable withRole(String role) {
        checkName("role", role);
        if (role.equals(ROOT) || roles.containsKey(role)) {
            throw new AdminException("role '" + role + "' already exists");
        }
        SortedMap<String, List<Grant>> next = new TreeMap<>(roles);
        next.put(role, List.of());
        return new AuthTable(enabled, users, next);
    }

    /** Removes the role and takes it from every user that had it. */
    public AuthTable withoutRole(String role) {
        existingRole(role);
        SortedMap<String, List<Grant>> next = new TreeMap<>(roles);
        next.remove(role);
        SortedMap<String, User> nextUsers = new TreeMap<>();
        for (User user : users.values()) {
            SortedSet<String> userRoles = new TreeSet<>(user.roles());
            userRoles.remove(role);
            nextUsers.put(user.name(), new User(user.name(), user.password(), userRoles));
        }
        return new AuthTable(enabled, nextUsers, next);
    }

    /** Grants {@code permission} on {@code prefix}, replacing the role's earlier grant on the same prefix. */
    public AuthTable withGrant(String role, Permission permission, Bytes prefix) {
        List<Grant> grants = new ArrayList<>(existingRole(role));
        if (isReserved(prefix)) {
            throw new AdminException("prefix " + prefix + " is under the reserved prefix " + RESERVED_PREFIX
                    + ", which no grant reaches");
        }
        grants.removeIf(grant -> grant.prefix().equals(prefix));
        grants.add(new Grant(prefix, permission));
        SortedMap<String, List<Grant>> next = new TreeMap<>(roles);
        next.put(role, grants);
        return new AuthTable(enabled, users, next);
    }

    public AuthTable withoutGrant(String role, Bytes prefix) {
        List<Grant> grants = new ArrayList<>(existingRole(role));
        if (!grants.removeIf(grant -> grant.prefix().equals(prefix))) {
            throw new AdminException("role '" + role + "' has no grant on prefix " + prefix);
        }
        SortedMap<String, List<Grant>> next = new TreeMap<>(roles);
        next.put(role, grants);
        return new AuthTable(enabled, users, next);
    }

    private User existingUser(String name) {
        User user = users.get(name);
        if (user == null) {
            throw new AdminException("no user '" + name + "'");
        }
        return user;
    }

    private List<Grant> existingRole(String role) {
        if (role.equals(ROOT)) {
            throw new AdminException("the role 'root' is built in: it has every permission and cannot be changed");
        }
        List<Grant> grants = roles.get(role);
        if (grants == null) {
            throw new AdminException("no role '" + role + "'");
        }
        return grants;
    }

    private static void checkName(String what, String name) {
        if (!NAME.matcher(name).matches()) {
            throw new AdminException(what + " name '" + name + "' must be 1 to " + NAME_MAX_CHARS
                    + " characters of letters, digits and _ . @ -");
        }
    }

    /** For {@code auth status}: the switch, every user with its roles, every role with its grants. */
    public String describe() {
        StringBuilder text = new StringBuilder("auth ")
                .append(enabled ? "enabled" : "disabled")
                .append('\n');
        text.append("users:").append(users.isEmpty() ? " none" : "").append('\n');
        for (User user : users.values()) {
            text.append("  ").append(user.name()).append(": roles ").append(user.roles());
            if (user.password() == null) {
                text.append(" (certificate only)");
            }
            text.append('\n');
        }
        text.append("roles:")
                .append(roles.isEmpty() ? " none besides root" : "")
                .append('\n');
        for (Map.Entry<String, List<Grant>> role : roles.entrySet()) {
            text.append("  ").append(role.getKey()).append(": ");
            List<String> grants = new ArrayList<>();
            role.getValue().forEach(grant -> grants.add(grant.toString()));
            text.append(grants.isEmpty() ? "no grants" : String.join(", ", grants))
                    .append('\n');
        }
        return text.toString();
    }

    /** The names of the roles {@code user} has, or an empty set. */
    public Set<String> rolesOf(String user) {
        User found = users.get(user);
        return found == null ? Set.of() : found.roles();
    }
}
