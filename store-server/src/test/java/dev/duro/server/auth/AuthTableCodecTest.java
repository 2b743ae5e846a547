package dev.duro.server.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.UnsupportedVersionException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The auth record's bytes: round trips, and any other bytes give a typed error, never another exception. */
class AuthTableCodecTest {
    private static final PasswordHash HASH =
            new PasswordHash(Bytes.utf8("0123456789abcdef"), 10_000, Bytes.wrap(new byte[32]));

    static AuthTable sample() {
        return AuthTable.EMPTY
                .withUser("root", HASH)
                .withUserRole("root", AuthTable.ROOT, true)
                .withUser("cert-only", null)
                .withRole("app-writer")
                .withGrant("app-writer", Permission.READWRITE, Bytes.utf8("app/"))
                .withGrant("app-writer", Permission.READ, Bytes.EMPTY)
                .withRole("empty")
                .withUser("alice", HASH)
                .withUserRole("alice", "app-writer", true)
                .withEnabled(true);
    }

    @Test
    void aTableRoundTripsAndReencodesToTheSameBytes() {
        for (AuthTable table : new AuthTable[] {AuthTable.EMPTY, sample()}) {
            byte[] bytes = AuthTableCodec.encode(table);
            AuthTable decoded = AuthTableCodec.decode(bytes);
            assertEquals(table, decoded);
            assertArrayEquals(bytes, AuthTableCodec.encode(decoded));
        }
    }

    @Test
    void aNewerFormatIsRefusedAsSuchAndEmptyBytesAsMalformed() {
        byte[] bytes = AuthTableCodec.encode(sample());
        bytes[0] = (byte) (AuthTableCodec.FORMAT + 1);
        assertThrows(UnsupportedVersionException.class, () -> AuthTableCodec.decode(bytes));
        assertThrows(MalformedInputException.class, () -> AuthTableCodec.decode(new byte[0]));
    }

    @Test
    void everyTruncationAndRandomCorruptionGivesATypedError() {
        byte[] bytes = AuthTableCodec.encode(sample());
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = java.util.Arrays.copyOf(bytes, length);
            assertThrows(DuroException.class, () -> AuthTableCodec.decode(cut), "truncated to " + length);
        }
        Random random = new Random(14);
        for (int round = 0; round < 2_000; round++) {
            byte[] corrupt = bytes.clone();
            corrupt[random.nextInt(corrupt.length)] = (byte) random.nextInt(256);
            try {
                AuthTableCodec.decode(corrupt);
            } catch (DuroException expected) {
                // typed: fine
            } catch (RuntimeException e) {
                fail("corruption in round " + round + " gave an untyped " + e, e);
            }
        }
    }
}
