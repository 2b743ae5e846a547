package dev.duro.server.auth;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Bytes;
import java.util.Objects;

/** A salted PBKDF2-HMAC-SHA256 hash of a password, with the iteration count it was made with. */
public record PasswordHash(Bytes salt, int iterations, Bytes hash) {
    public PasswordHash {
        Objects.requireNonNull(salt, "salt");
        Objects.requireNonNull(hash, "hash");
        checkArgument(iterations > 0, "iterations must be positive: %s", iterations);
        checkArgument(salt.size() > 0 && hash.size() > 0, "salt and hash must not be empty");
    }

    /** Never prints the hash. */
    @Override
    public String toString() {
        return "PBKDF2-HMAC-SHA256(" + iterations + " iterations)";
    }
}
