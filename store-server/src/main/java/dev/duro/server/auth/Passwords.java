package dev.duro.server.auth;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.Bytes;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Hashes passwords with PBKDF2-HMAC-SHA256 (the JDK's {@code PBKDF2WithHmacSHA256}) under a fresh 16-byte salt,
 * and verifies them in constant time. Hashing is deliberately slow (hundreds of milliseconds at the default
 * {@code auth.password-iterations}), so callers run it off the I/O threads.
 *
 * <p>A password verified once is remembered: a reconnect with the same password costs one SHA-256, not a PBKDF2.
 * The cache keeps neither the password nor anything it can be recovered from cheaply: per user, the stored hash it
 * was checked against and SHA-256 over (that hash's salt, the password). It is checked against the stored hash of
 * the moment, so a changed password or a removed user never verifies from the cache. Bounded: the least recently
 * used entry goes first (a {@code LinkedHashMap} in access order, under this object's lock, is enough at the rate
 * connections authenticate).
 */
public final class Passwords {
    public static final int SALT_BYTES = 16;
    public static final int HASH_BITS = 256;
    private static final int CACHE_ENTRIES_MAX = 10_000;

    private final int iterations;
    private final SecureRandom random;

    @GuardedBy("this")
    private final Map<String, Remembered> verified = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
            return size() > CACHE_ENTRIES_MAX;
        }
    };

    private record Remembered(PasswordHash against, byte[] digest) {}

    /** @param iterations for new hashes ({@code auth.password-iterations}) */
    public Passwords(int iterations, SecureRandom random) {
        checkArgument(iterations > 0, "iterations must be positive: %s", iterations);
        this.iterations = iterations;
        this.random = random;
    }

    public PasswordHash hash(Bytes password) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return new PasswordHash(Bytes.wrap(salt), iterations, Bytes.wrap(pbkdf2(password, salt, iterations)));
    }

    /** Whether {@code password} is the one {@code stored} was made from. */
    public boolean verify(String user, Bytes password, PasswordHash stored) {
        byte[] digest = sha256(stored.salt(), password);
        synchronized (this) {
            Remembered remembered = verified.get(user);
            if (remembered != null
                    && remembered.against.equals(stored)
                    && MessageDigest.isEqual(remembered.digest, digest)) {
                return true;
            }
        }
        if (!isText(password)) {
            return false;
        }
        byte[] computed = pbkdf2(password, stored.salt().unsafeArray(), stored.iterations());
        boolean matches = MessageDigest.isEqual(computed, stored.hash().unsafeArray());
        if (matches) {
            synchronized (this) {
                verified.put(user, new Remembered(stored, digest));
            }
        }
        return matches;
    }

    static byte[] pbkdf2(Bytes password, byte[] salt, int iterations) {
        char[] chars;
        try {
            chars = chars(password);
        } catch (CharacterCodingException e) {
            throw new AdminException("a password must be UTF-8 text");
        }
        PBEKeySpec spec = new PBEKeySpec(chars, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
            Arrays.fill(chars, '\0');
        }
    }

    /** Whether the password is UTF-8 text, as every password must be ({@link PBEKeySpec} hashes characters). */
    public static boolean isText(Bytes password) {
        try {
            chars(password);
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** The password's characters for {@link PBEKeySpec}, which takes chars and hashes their UTF-8 form. */
    private static char[] chars(Bytes password) throws CharacterCodingException {
        CharBuffer decoded = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(password.unsafeArray()));
        char[] chars = new char[decoded.remaining()];
        decoded.get(chars);
        return chars;
    }

    private static byte[] sha256(Bytes salt, Bytes password) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(salt.unsafeArray());
            digest.update(password.unsafeArray());
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM lacks SHA-256", e);
        }
    }
}
