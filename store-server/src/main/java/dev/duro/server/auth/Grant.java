package dev.duro.server.auth;

import dev.duro.core.Bytes;
import java.util.Arrays;
import java.util.Objects;

/** A role's permission on every key that starts with {@code prefix} (the empty prefix: every key). */
public record Grant(Bytes prefix, Permission permission) {
    public Grant {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(permission, "permission");
    }

    public boolean covers(Bytes key) {
        return startsWith(key, prefix);
    }

    static boolean startsWith(Bytes key, Bytes prefix) {
        byte[] k = key.unsafeArray();
        byte[] p = prefix.unsafeArray();
        return k.length >= p.length && Arrays.equals(k, 0, p.length, p, 0, p.length);
    }

    @Override
    public String toString() {
        return permission.word() + " on " + (prefix.size() == 0 ? "every key" : "prefix " + prefix);
    }
}
