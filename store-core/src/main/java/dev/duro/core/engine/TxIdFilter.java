package dev.duro.core.engine;

import dev.duro.core.TxId;
import dev.duro.core.codec.MalformedInputException;
import java.nio.ByteBuffer;

/**
 * A bloom filter of transaction ids: one generation of {@link ForgottenIds}. Its bits, and the bytes it is written as,
 * are those of Guava's {@code BloomFilter<TxId>} that earlier builds kept there (the 128-bit murmur3 of the id's
 * client and sequence as two little-endian longs, Guava's {@code MURMUR128_MITZ_64} strategy, and Guava's serial
 * form), so snapshots written before and after this class read alike. It hashes without allocating and sets bits
 * without atomics: the engine is single-threaded, and each forgotten outcome puts one id here (docs/performance.md,
 * "Forgotten ids without Guava's hashing").
 */
final class TxIdFilter {
    /** Guava's ordinal for the strategy whose bits these are; its serial form starts with it. */
    private static final byte STRATEGY_MURMUR128_MITZ_64 = 1;
    /** The serial form's header: the strategy, the number of hash functions, the number of longs. */
    private static final int HEADER_BYTES = 1 + 1 + Integer.BYTES;
    /** The serial form names the number of hash functions in one unsigned byte. */
    private static final int MAX_HASH_FUNCTIONS = 255;

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private final long[] bits;
    private final long bitSize;
    private final int hashFunctions;

    private TxIdFilter(long[] bits, int hashFunctions) {
        this.bits = bits;
        this.bitSize = (long) bits.length * Long.SIZE;
        this.hashFunctions = hashFunctions;
    }

    /** A filter sized as Guava sizes one for {@code expectedIds} ids at {@code falsePositiveRate}. */
    static TxIdFilter create(int expectedIds, double falsePositiveRate) {
        if (expectedIds < 1 || !(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException(
                    "a filter for " + expectedIds + " ids at a false-positive rate of " + falsePositiveRate);
        }
        long bitCount = (long) (-expectedIds * Math.log(falsePositiveRate) / (Math.log(2) * Math.log(2)));
        int hashFunctions = Math.max(1, (int) Math.round((double) bitCount / expectedIds * Math.log(2)));
        if (bitCount < 1 || hashFunctions > MAX_HASH_FUNCTIONS) {
            // Guava refuses these too: no bit to set, or more hash functions than its serial form's byte can name.
            throw new IllegalArgumentException("a filter for " + expectedIds + " ids at a false-positive rate of "
                    + falsePositiveRate + " would need " + bitCount + " bits and " + hashFunctions + " hash functions");
        }
        int longs = Math.toIntExact((bitCount + Long.SIZE - 1) / Long.SIZE);
        return new TxIdFilter(new long[longs], hashFunctions);
    }

    void put(TxId tid) {
        probe(tid, true);
    }

    boolean mightContain(TxId tid) {
        return probe(tid, false);
    }

    TxIdFilter copy() {
        return new TxIdFilter(bits.clone(), hashFunctions);
    }

    /** Guava's serial form: the strategy, the number of hash functions, the number of longs, the longs (big-endian). */
    byte[] toBytes() {
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + bits.length * Long.BYTES);
        out.put(STRATEGY_MURMUR128_MITZ_64).put((byte) hashFunctions).putInt(bits.length);
        for (long word : bits) {
            out.putLong(word);
        }
        return out.array();
    }

    /** Reads {@link #toBytes}'s form (or Guava's, the same); malformed input is refused, naming what is wrong. */
    static TxIdFilter fromBytes(byte[] raw) {
        if (raw.length < HEADER_BYTES) {
            throw new MalformedInputException("forgotten-id filter of " + raw.length + " bytes, below its header");
        }
        ByteBuffer in = ByteBuffer.wrap(raw);
        byte strategy = in.get();
        int hashFunctions = Byte.toUnsignedInt(in.get());
        int longs = in.getInt();
        if (strategy != STRATEGY_MURMUR128_MITZ_64) {
            throw new MalformedInputException("forgotten-id filter with hashing strategy " + strategy);
        }
        if (hashFunctions < 1) {
            throw new MalformedInputException("forgotten-id filter with no hash function");
        }
        if (longs < 1 || (long) longs * Long.BYTES != raw.length - HEADER_BYTES) {
            throw new MalformedInputException(
                    "forgotten-id filter of " + longs + " longs in " + (raw.length - HEADER_BYTES) + " bytes");
        }
        long[] bits = new long[longs];
        for (int i = 0; i < longs; i++) {
            bits[i] = in.getLong();
        }
        return new TxIdFilter(bits, hashFunctions);
    }

    /**
     * Sets ({@code set}) or tests the id's bits: those at {@code h1 + i * h2} for each hash function i, where h1 and h2
     * are the halves of murmur3_x64_128 with seed 0 over the 16 bytes (client, sequence), both little-endian: one
     * block and no tail. Returns whether every bit tested was set (true when setting).
     */
    private boolean probe(TxId tid, boolean set) {
        long k1 = tid.clientId() * C1;
        k1 = Long.rotateLeft(k1, 31) * C2;
        long h1 = Long.rotateLeft(k1, 27) * 5 + 0x52dce729;
        long k2 = tid.sequence() * C2;
        k2 = Long.rotateLeft(k2, 33) * C1;
        long h2 = (Long.rotateLeft(k2, 31) + h1) * 5 + 0x38495ab5;
        h1 ^= 2 * Long.BYTES; // the input's length
        h2 ^= 2 * Long.BYTES;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        long combined = h1;
        for (int i = 0; i < hashFunctions; i++) {
            long bit = (combined & Long.MAX_VALUE) % bitSize;
            long mask = 1L << bit; // the low six bits of bit
            int word = (int) (bit >>> 6);
            if (set) {
                bits[word] |= mask;
            } else if ((bits[word] & mask) == 0) {
                return false;
            }
            combined += h2;
        }
        return true;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
