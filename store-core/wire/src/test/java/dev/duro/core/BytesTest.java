package dev.duro.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BytesTest {
    /** Both when hashed as it is made (short) and when hashed on first use (long), and again once cached. */
    @Test
    void hashCodeIsMurmur3OfTheContentForEveryLength() {
        Random random = new Random(11);
        for (int length = 0; length < 2 * Bytes.EAGER_HASH_BYTES_MAX + 8; length++) {
            byte[] content = new byte[length];
            random.nextBytes(content);
            int murmur3 = Hashing.murmur3_32_fixed().hashBytes(content).asInt();
            int expected = murmur3 == 0 ? 1 : murmur3;
            Bytes copy = Bytes.copyOf(content);
            assertEquals(expected, copy.hashCode(), "length " + length);
            assertEquals(expected, copy.hashCode(), "length " + length + ", cached");
            assertEquals(expected, Bytes.wrap(content.clone()).hashCode(), "length " + length + ", wrapped");
            byte[] padded = new byte[length + 6];
            System.arraycopy(content, 0, padded, 3, length);
            assertEquals(expected, Bytes.copyOf(padded, 3, length).hashCode(), "length " + length + ", a range");
        }
    }

    /** Short binary keys must spread over many hash values, or every map of keys degrades to tree bins. */
    @Test
    void fourByteCounterKeysGetDistinctHashCodes() {
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < 1_000_000; i++) {
            hashes.add(Bytes.wrap(ByteBuffer.allocate(4).putInt(i).array()).hashCode());
        }
        assertTrue(hashes.size() > 999_000, "only " + hashes.size() + " distinct hash codes");
    }

    @Test
    void equalContentIsEqualAndOrderIsUnsigned() {
        assertEquals(Bytes.utf8("abc"), Bytes.copyOf(new byte[] {'a', 'b', 'c'}));
        assertEquals(
                Bytes.utf8("abc").hashCode(),
                Bytes.copyOf(new byte[] {'a', 'b', 'c'}).hashCode());
        assertNotEquals(Bytes.utf8("abc"), Bytes.utf8("abd"));
        assertTrue(Bytes.wrap(new byte[] {(byte) 0x80}).compareTo(Bytes.wrap(new byte[] {0x7f})) > 0);
        assertTrue(Bytes.utf8("ab").compareTo(Bytes.utf8("abc")) < 0);
    }
}
