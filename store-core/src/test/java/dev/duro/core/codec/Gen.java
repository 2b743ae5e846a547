package dev.duro.core.codec;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.AbortRequest;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.CutAdvance;
import dev.duro.core.engine.Decision;
import dev.duro.core.engine.Vote;
import dev.duro.core.snapshot.Frontier;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Seeded random generators of the core's protocol values, biased towards edge cases: empty and maximum-size keys,
 * deletes, the largest numbers, many partitions. Every value is valid under the given limits, so it must survive
 * an encode/decode round trip unchanged.
 */
public final class Gen {
    private static final long[] EDGE_LONGS = {
        0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, 1L << 32, Long.MAX_VALUE, -1, Long.MIN_VALUE
    };

    private final Random random;
    private final Limits limits;

    public Gen(long seed, Limits limits) {
        this.random = new Random(seed);
        this.limits = limits;
    }

    public Random random() {
        return random;
    }

    public Limits limits() {
        return limits;
    }

    public boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    public <T> T oneOf(T[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** Mostly small, sometimes up to {@code max}. */
    public int size(int max) {
        if (max <= 0) {
            return 0;
        }
        if (chance(0.05)) {
            return max;
        }
        return random.nextInt(Math.min(max, chance(0.8) ? 5 : 64) + 1);
    }

    /** Any 64-bit value: request ids and client ids may use all of them. */
    public long anyLong() {
        return chance(0.3) ? EDGE_LONGS[random.nextInt(EDGE_LONGS.length)] : random.nextLong() >> random.nextInt(64);
    }

    public long nonNegative() {
        long value = anyLong();
        return value < 0 ? value & Long.MAX_VALUE : value;
    }

    public int partition() {
        return chance(0.1) ? Limits.PARTITIONS_MAX - 1 : random.nextInt(chance(0.8) ? 8 : Limits.PARTITIONS_MAX);
    }

    /** Distinct partitions in ascending order. */
    public List<Integer> partitions(int min, int max) {
        int count = min + random.nextInt(max - min + 1);
        TreeSet<Integer> partitions = new TreeSet<>();
        int range = count > 16 || chance(0.3) ? Limits.PARTITIONS_MAX : 16;
        while (partitions.size() < count) {
            partitions.add(random.nextInt(range));
        }
        return List.copyOf(partitions);
    }

    public Bytes bytes(int length) {
        byte[] raw = new byte[length];
        random.nextBytes(raw);
        return Bytes.wrap(raw);
    }

    public Bytes key() {
        double roll = random.nextDouble();
        if (roll < 0.1) {
            return Bytes.EMPTY;
        }
        if (roll < 0.13) {
            return bytes(limits.keyBytesMax());
        }
        return bytes(1 + random.nextInt(Math.min(24, limits.keyBytesMax())));
    }

    public Bytes value() {
        double roll = random.nextDouble();
        if (roll < 0.1) {
            return Bytes.EMPTY;
        }
        if (roll < 0.12) {
            return bytes(Math.min(limits.valueBytesMax(), 4096));
        }
        return bytes(1 + random.nextInt(Math.min(64, limits.valueBytesMax())));
    }

    public Write write() {
        return chance(0.2) ? Write.delete(key()) : Write.put(key(), value());
    }

    public TxId txId() {
        return new TxId(anyLong(), anyLong());
    }

    public List<Bytes> readSet(int max) {
        List<Bytes> keys = new ArrayList<>();
        for (int i = size(max); i > 0; i--) {
            keys.add(key());
        }
        return keys;
    }

    public List<Write> writeSet(int max) {
        List<Write> writes = new ArrayList<>();
        for (int i = size(max); i > 0; i--) {
            writes.add(write());
        }
        return writes;
    }

    public AbortReason reason() {
        AbortReason.Kind kind = oneOf(AbortReason.Kind.values());
        Bytes key = chance(0.5) ? key() : null;
        return new AbortReason(kind, partition(), key, nonNegative(), random.nextBoolean());
    }

    public Vote vote() {
        AbortReason reason = chance(0.4) ? reason() : null;
        return new Vote(txId(), partition(), nonNegative(), reason, random.nextBoolean());
    }

    public Outcome outcome() {
        List<Integer> participants = partitions(1, chance(0.1) ? 100 : 4);
        if (chance(0.3)) {
            return Outcome.aborted(txId(), participants, reason());
        }
        List<Long> versions = new ArrayList<>();
        for (int i = 0; i < participants.size(); i++) {
            versions.add(nonNegative());
        }
        return Outcome.committed(txId(), participants, versions);
    }

    public Frontier frontier() {
        return new Frontier(partition(), nonNegative(), vector(), chance(0.5) ? List.of() : vector());
    }

    private List<Long> vector() {
        List<Long> values = new ArrayList<>();
        for (int i = chance(0.1) ? size(200) : size(4); i > 0; i--) {
            values.add(nonNegative());
        }
        return values;
    }

    public CutAdvance cutAdvance() {
        return new CutAdvance(partition(), vector());
    }

    public CommitRequest commitRequest() {
        List<Integer> participants = partitions(1, chance(0.1) ? 200 : 3);
        int keysMax = limits.transactionKeysMax();
        List<Bytes> readSet = readSet(Math.min(keysMax, 40));
        List<Write> writeSet = writeSet(Math.min(keysMax - readSet.size(), 40));
        List<Long> snapshots = new ArrayList<>();
        for (int i = 0; i < participants.size(); i++) {
            snapshots.add(nonNegative());
        }
        return new CommitRequest(txId(), participants, snapshots, readSet, writeSet, scannedRanges(readSet, writeSet));
    }

    /** Mostly none (the encoding of point-only requests); otherwise a few ranges within the key limit. */
    private List<KeyRange> scannedRanges(List<Bytes> readSet, List<Write> writeSet) {
        int room = limits.transactionKeysMax() - readSet.size() - writeSet.size();
        List<KeyRange> ranges = new ArrayList<>();
        if (room <= 0 || !chance(0.3)) {
            return ranges;
        }
        for (int i = Math.min(room, 1 + random.nextInt(4)); i > 0; i--) {
            Bytes from = key();
            boolean open = chance(0.2) || from.size() >= limits.keyBytesMax(); // a successor is one byte longer
            ranges.add(open ? new KeyRange(from, null) : new KeyRange(from, KeyRange.successor(from)));
        }
        return ranges;
    }

    public AbortRequest abortRequest() {
        List<Integer> participants = partitions(1, 5);
        return new AbortRequest(txId(), participants, partition(), nonNegative());
    }

    public Decision decision() {
        Outcome outcome = outcome();
        while (outcome.participants().size() < 2) {
            outcome = outcome();
        }
        return new Decision(
                outcome,
                outcome.participants().get(random.nextInt(outcome.participants().size())));
    }

    public Command command() {
        return chance(0.7) ? commitRequest() : chance(0.4) ? abortRequest() : chance(0.7) ? decision() : cutAdvance();
    }

    /** Printable text of at most {@code maxChars} chars, mixing ASCII, accented, CJK and non-BMP characters. */
    public String text(int maxChars) {
        int target = chance(0.05) ? maxChars : random.nextInt(Math.min(maxChars, 40) + 1);
        StringBuilder out = new StringBuilder();
        while (true) {
            int codePoint = codePoint();
            if (out.length() + Character.charCount(codePoint) > target) {
                return out.toString();
            }
            out.appendCodePoint(codePoint);
        }
    }

    private int codePoint() {
        double roll = random.nextDouble();
        if (roll < 0.7) {
            return 0x20 + random.nextInt(0x5f);
        } else if (roll < 0.8) {
            return 0xc0 + random.nextInt(0x100);
        } else if (roll < 0.9) {
            return 0x4e00 + random.nextInt(0x5000);
        }
        return 0x1f300 + random.nextInt(0x300);
    }
}
