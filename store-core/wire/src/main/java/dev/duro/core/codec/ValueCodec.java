package dev.duro.core.codec;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.LimitExceededException;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Encodings of the value types a client and a node share: transaction ids, partition lists, abort reasons, keys,
 * values, key sets, scanned ranges and outcomes. The client protocol's messages are built from these; the engine's
 * commands, log entries and snapshots use them too (the engine's codec extends this one).
 *
 * <p>Decoding reads fields in order and stops at the first problem:
 *
 * <ul>
 *   <li>a length or count larger than the input can still hold, a truncated field, an unknown tag, or a value
 *       outside the protocol's own range (a partition at or above {@link Limits#PARTITIONS_MAX}, participants out of
 *       order) is a {@link MalformedInputException};
 *   <li>a key, value or key count that is fully present in the input but larger than the configured
 *       {@link Limits} is a {@link LimitExceededException} naming the limit. It is thrown before that many items
 *       are allocated, so the limits also bound what a decoder allocates.
 * </ul>
 */
public class ValueCodec {
    /** Wire codes of the abort reasons, by position: append new kinds, never reorder. */
    private static final List<AbortReason.Kind> REASON_KINDS = List.of(
            AbortReason.Kind.READ_KEY_OVERWRITTEN,
            AbortReason.Kind.WRITTEN_KEY_READ_CONCURRENTLY,
            AbortReason.Kind.SNAPSHOT_TOO_OLD,
            AbortReason.Kind.ABORT_REQUESTED,
            AbortReason.Kind.INVALID_SNAPSHOT);

    private final Limits limits;

    public ValueCodec(Limits limits) {
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    // ---- identities and small types ----

    public static void writeTxId(ByteWriter out, TxId tid) {
        out.writeLong(tid.clientId()).writeLong(tid.sequence());
    }

    public static TxId readTxId(ByteReader in) {
        return new TxId(in.readLong(), in.readLong());
    }

    public static void writePartitions(ByteWriter out, List<Integer> partitions) {
        out.writeVarLong(partitions.size());
        for (int partition : partitions) {
            out.writeVarLong(partition);
        }
    }

    /*
     * One immutable list per partition for the commonest partition list, a local transaction's: what a partition
     * retains of each transaction it delivers (its outcome) shares it rather than keeping a list of its own
     * (docs/performance.md, "One object per key"). Filled as partitions are met; a race only makes an equal list twice,
     * and an immutable list is safe to publish without a lock (its fields are final).
     */
    @SuppressWarnings("unchecked")
    private static final List<Integer>[] SINGLE_PARTITION = new List[Limits.PARTITIONS_MAX];

    /**
     * Partitions in ascending order, each below {@link Limits#PARTITIONS_MAX}, as an unmodifiable list (one partition's
     * list is shared).
     */
    public static List<Integer> readPartitions(ByteReader in, String what) {
        int count = in.readVarInt(Limits.PARTITIONS_MAX, what + " count");
        if (count == 1) {
            int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, what);
            List<Integer> single = SINGLE_PARTITION[partition];
            if (single == null) {
                single = List.of(partition);
                SINGLE_PARTITION[partition] = single;
            }
            return single;
        }
        List<Integer> partitions = new ArrayList<>(Math.min(count, in.remaining()));
        for (int i = 0; i < count; i++) {
            int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, what);
            if (i > 0 && partition <= partitions.get(i - 1)) {
                throw new MalformedInputException(what + " must ascend without duplicates");
            }
            partitions.add(partition);
        }
        return List.copyOf(partitions);
    }

    public static void writeNumbers(ByteWriter out, List<Long> numbers) {
        out.writeVarLong(numbers.size());
        for (long number : numbers) {
            out.writeVarLong(number);
        }
    }

    public static List<Long> readNumbers(ByteReader in, int max, String what) {
        int count = in.readVarInt(max, what + " count");
        List<Long> numbers = new ArrayList<>(Math.min(count, in.remaining()));
        for (int i = 0; i < count; i++) {
            numbers.add(readNonNegative(in, what));
        }
        return numbers;
    }

    public static long readNonNegative(ByteReader in, String what) {
        long value = in.readVarLong();
        if (value < 0) {
            throw new MalformedInputException(what + " must be non-negative");
        }
        return value;
    }

    public static void writeReason(ByteWriter out, @Nullable AbortReason reason) {
        out.writeBoolean(reason != null);
        if (reason == null) {
            return;
        }
        out.writeByte(REASON_KINDS.indexOf(reason.kind()));
        out.writeVarLong(reason.partition());
        out.writeNullableBytes(reason.key());
        out.writeVarLong(reason.number());
        out.writeBoolean(reason.possibleFalsePositive());
    }

    public @Nullable AbortReason readReason(ByteReader in) {
        if (!in.readBoolean()) {
            return null;
        }
        int kind = in.readByte();
        if (kind >= REASON_KINDS.size()) {
            throw new MalformedInputException("unknown abort reason kind " + kind);
        }
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "abort reason partition");
        Bytes key = in.readBoolean() ? readKey(in) : null;
        long number = readNonNegative(in, "abort reason number");
        return new AbortReason(REASON_KINDS.get(kind), partition, key, number, in.readBoolean());
    }

    // ---- keys, values and the key sets of a transaction ----

    /** A key: malformed if its length exceeds the input, a {@link LimitExceededException} if it exceeds the limit. */
    public Bytes readKey(ByteReader in) {
        int length = in.readLength("key length");
        check(Limits.Limit.KEY_BYTES, length, limits.keyBytesMax());
        return in.readBytesExactly(length, "key");
    }

    /** A value behind a presence byte ({@code null} for a delete or an absent key), checked like a key. */
    public @Nullable Bytes readNullableValue(ByteReader in) {
        if (!in.readBoolean()) {
            return null;
        }
        int length = in.readLength("value length");
        check(Limits.Limit.VALUE_BYTES, length, limits.valueBytesMax());
        return in.readBytesExactly(length, "value");
    }

    public static void writeReadSet(ByteWriter out, List<Bytes> readSet) {
        out.writeVarLong(readSet.size());
        for (Bytes key : readSet) {
            out.writeBytes(key);
        }
    }

    public static void writeWriteSet(ByteWriter out, List<Write> writeSet) {
        out.writeVarLong(writeSet.size());
        for (Write write : writeSet) {
            out.writeBytes(write.key());
            out.writeNullableBytes(write.value());
        }
    }

    /**
     * A read set, whose keys count towards the transaction's key limit together with the {@code keysBefore} keys
     * of the same transaction already decoded (key-set entries are counted: a key that is read and written belongs
     * in the write set only, which certifies it as read too).
     */
    public List<Bytes> readReadSet(ByteReader in, int keysBefore) {
        int count = readKeyCount(in, keysBefore, "read set size");
        Bytes[] readSet = new Bytes[count];
        for (int i = 0; i < count; i++) {
            readSet[i] = readKey(in);
        }
        return List.of(readSet); // immutable already: a request made of it need not copy it again
    }

    /** A write set, counted towards the key limit like {@link #readReadSet}. */
    public List<Write> readWriteSet(ByteReader in, int keysBefore) {
        int count = readKeyCount(in, keysBefore, "write set size");
        Write[] writeSet = new Write[count];
        for (int i = 0; i < count; i++) {
            Bytes key = readKey(in);
            writeSet[i] = new Write(key, readNullableValue(in));
        }
        return List.of(writeSet);
    }

    /** Scanned ranges: a count, then per range its start and its end behind a presence byte (none: no end). */
    public static void writeRanges(ByteWriter out, List<KeyRange> ranges) {
        out.writeVarLong(ranges.size());
        for (KeyRange range : ranges) {
            writeRange(out, range);
        }
    }

    /** A range: its start, then its end behind a presence byte (none: no end). */
    public static void writeRange(ByteWriter out, KeyRange range) {
        out.writeBytes(range.from());
        out.writeNullableBytes(range.to());
    }

    /**
     * Scanned ranges, each counted as one entry towards the transaction's key limit with the {@code keysBefore}
     * entries already decoded; a range whose end is not above its start is malformed.
     */
    public List<KeyRange> readRanges(ByteReader in, int keysBefore) {
        int count = readKeyCount(in, keysBefore, "scanned range count");
        List<KeyRange> ranges = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ranges.add(readRange(in, "scanned range"));
        }
        return ranges;
    }

    /** A range as {@link #writeRange} writes it, its keys checked like any key; malformed if it is empty. */
    public KeyRange readRange(ByteReader in, String what) {
        Bytes from = readKey(in);
        Bytes to = in.readBoolean() ? readKey(in) : null;
        if (to != null && from.compareTo(to) >= 0) {
            throw new MalformedInputException(what + " end " + to + " is not above its start " + from);
        }
        return new KeyRange(from, to);
    }

    private int readKeyCount(ByteReader in, int keysBefore, String what) {
        int count = in.readLength(what); // every key takes at least its length byte
        check(Limits.Limit.TRANSACTION_KEYS, (long) keysBefore + count, limits.transactionKeysMax());
        return count;
    }

    private static void check(Limits.Limit limit, long actual, long maximum) {
        if (actual > maximum) {
            throw new LimitExceededException(limit, actual, maximum);
        }
    }

    /** Participants: partitions as {@link #readPartitions} reads them, at least one. */
    public static List<Integer> readNonEmptyPartitions(ByteReader in) {
        List<Integer> participants = readPartitions(in, "participant");
        if (participants.isEmpty()) {
            throw new MalformedInputException("a transaction needs at least one participant");
        }
        return participants;
    }

    // ---- outcomes ----

    public static void writeOutcome(ByteWriter out, Outcome outcome) {
        writeTxId(out, outcome.tid());
        writePartitions(out, outcome.participants());
        writeNumbers(out, outcome.versions());
        writeReason(out, outcome.reason());
    }

    public Outcome readOutcome(ByteReader in) {
        TxId tid = readTxId(in);
        List<Integer> participants = readPartitions(in, "outcome participant");
        List<Long> versions = readNumbers(in, participants.size(), "outcome version");
        AbortReason reason = readReason(in);
        if (reason == null && versions.size() != participants.size()) {
            throw new MalformedInputException("a committed outcome has one version per participant");
        }
        return new Outcome(tid, participants, versions, reason);
    }
}
