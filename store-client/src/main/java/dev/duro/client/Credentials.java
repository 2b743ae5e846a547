package dev.duro.client;

import dev.duro.core.Bytes;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** A user name and password the client authenticates every connection with (docs/auth.md). */
record Credentials(String user, Bytes password) {
    Credentials {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /** Copies the password as UTF-8; the caller may clear its array afterwards. */
    static Credentials of(String user, char[] password) {
        ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        if (encoded.hasArray()) {
            Arrays.fill(encoded.array(), (byte) 0);
        }
        return new Credentials(user, Bytes.wrap(bytes));
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + "]";
    }
}
