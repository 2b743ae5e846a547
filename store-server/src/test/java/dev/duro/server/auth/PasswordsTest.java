package dev.duro.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PasswordsTest {
    private final Passwords passwords = new Passwords(10_000, new SecureRandom());

    @Test
    void pbkdf2MatchesTheRfc7914TestVector() {
        // RFC 7914 section 11: PBKDF2-HMAC-SHA256, P="passwd", S="salt", c=1, first 32 bytes of dkLen 64.
        byte[] derived =
                Passwords.pbkdf2(Bytes.utf8("passwd"), Bytes.utf8("salt").toByteArray(), 1);
        assertEquals(
                "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc",
                HexFormat.of().formatHex(derived));
    }

    @Test
    void theRightPasswordVerifiesAndAnyOtherDoesNot() {
        PasswordHash stored = passwords.hash(Bytes.utf8("correct horse"));
        assertEquals(10_000, stored.iterations());
        assertEquals(Passwords.SALT_BYTES, stored.salt().size());
        assertTrue(passwords.verify("alice", Bytes.utf8("correct horse"), stored));
        assertFalse(passwords.verify("alice", Bytes.utf8("correct horse "), stored));
        assertFalse(passwords.verify("alice", Bytes.utf8(""), stored));
        assertFalse(passwords.verify("alice", Bytes.wrap(new byte[] {(byte) 0xff}), stored), "not UTF-8");
    }

    @Test
    void theSamePasswordGetsADifferentSaltAndHashEachTime() {
        PasswordHash first = passwords.hash(Bytes.utf8("same"));
        PasswordHash second = passwords.hash(Bytes.utf8("same"));
        assertNotEquals(first.salt(), second.salt());
        assertNotEquals(first.hash(), second.hash());
    }

    @Test
    void aRememberedVerificationNeverAcceptsAnotherPasswordOrAReplacedHash() {
        PasswordHash stored = passwords.hash(Bytes.utf8("one"));
        assertTrue(passwords.verify("bob", Bytes.utf8("one"), stored));
        assertTrue(passwords.verify("bob", Bytes.utf8("one"), stored), "from the cache");
        assertFalse(passwords.verify("bob", Bytes.utf8("two"), stored));
        PasswordHash replaced = passwords.hash(Bytes.utf8("two"));
        assertFalse(passwords.verify("bob", Bytes.utf8("one"), replaced), "the old password after a change");
        assertTrue(passwords.verify("bob", Bytes.utf8("two"), replaced));
    }

    @Test
    void aPasswordThatIsNotTextCannotBeSet() {
        assertThrows(AdminException.class, () -> passwords.hash(Bytes.wrap(new byte[] {(byte) 0xc3})));
    }
}
