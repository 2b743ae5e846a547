package dev.duro.core.certify;

import com.google.common.hash.BloomFilter;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * DUR certification in log order (S-DUR Algorithm 4, lines 38–46), over a window of the last K certified
 * transactions.
 *
 * <h2>Design</h2>
 *
 * <p>Transaction {@code t} with snapshot {@code st} is certified against every transaction numbered in
 * {@code (st, PSC]}. Two representations answer that question:
 *
 * <ul>
 *   <li><b>Exact index</b>: per key, the number of the last certified transaction that wrote it
 *       ({@code lastWrite}) and that read it ({@code lastRead}). A read key conflicts iff {@code lastWrite > st};
 *       for a global {@code t}, a written key conflicts iff {@code lastRead > st}. The maximum suffices because
 *       the question is whether <em>any</em> number above {@code st} touched the key.
 *   <li><b>Bloom summaries</b>: a transaction whose readset has at least {@code bloomReadSetKeysMin} keys is
 *       <em>recorded</em> with a Guava {@link BloomFilter} of its readset rather than a {@code lastRead} per key,
 *       which bounds the memory a huge readset holds for K transactions. Such summaries are only consulted by the
 *       stronger test of a later global transaction, whose written keys are probed against them. Bloom filters
 *       only add false positives, so the decisions equal the exact ones except for extra aborts, which the reason
 *       marks as possible false positives.
 * </ul>
 *
 * <p>The reads of the transaction being certified are always checked exactly against {@code lastWrite}, whatever
 * its size: its readset is at hand, and every retained writer, however it was recorded, keeps its written keys
 * in the index. (Probing a bloom filter of the readset with every write since the snapshot instead would abort a
 * transaction whose snapshot lags by a few thousand writes almost surely: each probe risks a false positive.)
 *
 * <p><b>Scanned ranges</b> (docs/ranges.md) are reads of every key in them, the absent ones included. A range of
 * {@code t} conflicts iff a transaction in {@code (st, PSC]} wrote a key in it: the {@link OrderedWriteIndex}, the
 * window's written keys in key order with their newest writer, answers that exactly in both representations (a
 * phantom is an insert or delete, and both are writes). For the stronger test, a retained transaction's ranges are
 * kept with it: exactly, or for a summarised one as their span, which holds every key of every range and so can
 * only add aborts, marked as possible false positives.
 *
 * <p>Writesets are always retained exactly (they are needed for the bloom check and to prune the index). When a
 * transaction falls out of the window its index entries are removed unless a newer transaction refreshed them:
 * any transaction old enough to care about them aborts as too old anyway. Memory is therefore bounded by K
 * times the transaction size.
 *
 * <p>Every decision is a function of the delivered sequence and the settings only; the whole state is written
 * to and read from the partition's snapshot.
 */
public final class Certifier {
    private final CertifierSettings settings;
    private final int partition;
    private final KeyStampIndex index = new KeyStampIndex();
    /*
     * The window: a ring of the last K certified transactions, transaction number n in slot n % K, held in
     * parallel arrays rather than one object per transaction. Exactly one of readKeys[slot] and
     * readSummaries[slot] is set for an occupied slot.
     */
    private final long[] numbers;
    private final Bytes[][] writeKeys;
    private final List<Bytes>[] readKeys;
    private final BloomFilter<Bytes>[] readSummaries;
    /** A slot's scanned ranges (null: none): exact, or their span when the slot holds a read summary. */
    private final KeyRange[][] scans;
    /** Occupied slots with exact ranges; while 0 the stronger test skips looking for range readers. */
    private int exactScanners;

    private final OrderedWriteIndex orderedWrites = new OrderedWriteIndex();
    /** Every retained transaction numbered up to here has its writes in {@link #orderedWrites}. */
    private long orderedUpTo;

    private long pendingSnapshotCounter;

    @SuppressWarnings("unchecked")
    public Certifier(int partition, CertifierSettings settings) {
        this.partition = partition;
        this.settings = settings;
        int k = settings.windowTransactions();
        this.numbers = new long[k];
        this.writeKeys = new Bytes[k][];
        this.readKeys = new List[k];
        this.readSummaries = new BloomFilter[k];
        this.scans = new KeyRange[k][];
    }

    public CertifierSettings settings() {
        return settings;
    }

    /** PSC: the number of the last transaction that passed certification. */
    public long pendingSnapshotCounter() {
        return pendingSnapshotCounter;
    }

    /** The oldest snapshot that can still pass certification. */
    public long oldestCertifiableSnapshot() {
        return Math.max(0, pendingSnapshotCounter - settings.windowTransactions());
    }

    /** Number of keys in the exact index (for metrics and tests of the memory bound). */
    public int indexedKeys() {
        return index.size();
    }

    /** Number of keys in the ordered index of written keys (for tests of its memory bound). */
    public int orderedWrittenKeys() {
        return orderedWrites.size();
    }

    /**
     * Whether a transaction with {@code readKeys} read (and written) keys and scanned ranges is recorded with a
     * bloom summary.
     */
    public boolean usesBloom(int readKeys) {
        return readKeys >= settings.bloomReadSetKeysMin();
    }

    /**
     * Certifies a transaction against everything certified after its snapshot. Does not change any state.
     *
     * @param readSet the keys read at this partition (the written keys count as read too, S-DUR's ws ⊆ rs)
     * @return null if it passes, or why it must abort
     */
    public @Nullable AbortReason certify(long snapshot, List<Bytes> readSet, List<Write> writeSet, boolean global) {
        return certify(snapshot, readSet, writeSet, List.of(), global);
    }

    /**
     * Certifies a transaction that also scanned {@code ranges}: each is a read of every key in it. Does not change
     * any decision-relevant state (it may fill the ordered index of written keys, which answers alike either way).
     *
     * @return null if it passes, or why it must abort; a range conflict names the smallest key of the range written
     *     after the snapshot
     */
    public @Nullable AbortReason certify(
            long snapshot, List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges, boolean global) {
        if (snapshot < oldestCertifiableSnapshot()) {
            return AbortReason.snapshotTooOld(partition, oldestCertifiableSnapshot());
        }
        if (snapshot > pendingSnapshotCounter) {
            return AbortReason.invalidSnapshot(partition, pendingSnapshotCounter);
        }
        if (snapshot == pendingSnapshotCounter) {
            return null; // nothing was certified after the snapshot
        }
        AbortReason reason = readsAgainstWrites(snapshot, readSet, writeSet);
        if (reason == null && !ranges.isEmpty()) {
            reason = rangesAgainstWrites(snapshot, ranges);
        }
        if (reason == null && global && settings.strongerTestForGlobal()) {
            reason = writesAgainstReads(snapshot, writeSet);
        }
        return reason;
    }

    private @Nullable AbortReason readsAgainstWrites(long snapshot, List<Bytes> readSet, List<Write> writeSet) {
        for (int i = 0, n = readSet.size(); i < n; i++) {
            AbortReason reason = readAgainstWrites(snapshot, readSet.get(i));
            if (reason != null) {
                return reason;
            }
        }
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            AbortReason reason = readAgainstWrites(snapshot, writeSet.get(i).key());
            if (reason != null) {
                return reason;
            }
        }
        return null;
    }

    private @Nullable AbortReason readAgainstWrites(long snapshot, Bytes key) {
        int slot = index.find(key);
        if (slot >= 0 && index.lastWrite(slot) > snapshot) {
            return AbortReason.readKeyOverwritten(partition, key, index.lastWrite(slot), false);
        }
        return null;
    }

    /** A range conflicts with the smallest key in it that a transaction after the snapshot wrote. */
    private @Nullable AbortReason rangesAgainstWrites(long snapshot, List<KeyRange> ranges) {
        catchUpOrderedWrites();
        for (int i = 0, n = ranges.size(); i < n; i++) {
            OrderedWriteIndex.Written written = orderedWrites.firstWrittenAfter(ranges.get(i), snapshot);
            if (written != null) {
                return AbortReason.readKeyOverwritten(partition, written.key(), written.number(), false);
            }
        }
        return null;
    }

    /** Adds the writes of the retained transactions not yet in the ordered index. */
    private void catchUpOrderedWrites() {
        long first = Math.max(orderedUpTo + 1, Math.max(1, pendingSnapshotCounter - numbers.length + 1));
        for (long number = first; number <= pendingSnapshotCounter; number++) {
            orderedWrites.add(writeKeys[retainedSlot(number)], number);
        }
        orderedUpTo = pendingSnapshotCounter;
    }

    /**
     * The stronger test of §IV-C: no transaction certified after the snapshot read what t writes, by a point read or
     * inside a scanned range.
     */
    private @Nullable AbortReason writesAgainstReads(long snapshot, List<Write> writeSet) {
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            Bytes key = writeSet.get(i).key();
            int slot = index.find(key);
            long reader = slot >= 0 ? index.lastRead(slot) : 0;
            if (exactScanners > 0) {
                reader = Math.max(reader, newestExactScannerOf(key, snapshot));
            }
            if (reader > snapshot) {
                return AbortReason.writtenKeyReadConcurrently(partition, key, reader, false);
            }
        }
        if (settings.bloomReadSetKeysMin() == Integer.MAX_VALUE) {
            return null; // no record carries a bloom summary
        }
        for (long number = snapshot + 1; number <= pendingSnapshotCounter; number++) {
            int slot = retainedSlot(number);
            BloomFilter<Bytes> summary = readSummaries[slot];
            if (summary == null) {
                continue;
            }
            KeyRange span = scans[slot] == null ? null : scans[slot][0];
            for (int i = 0, n = writeSet.size(); i < n; i++) {
                Bytes key = writeSet.get(i).key();
                if (summary.mightContain(key) || (span != null && span.contains(key))) {
                    return AbortReason.writtenKeyReadConcurrently(partition, key, number, true);
                }
            }
        }
        return null;
    }

    /**
     * The newest transaction in {@code (snapshot, PSC]} recorded with exact ranges of which one holds {@code key},
     * or 0. Walks that part of the window, like the summaries' probe: ranges are not indexed for this side.
     */
    private long newestExactScannerOf(Bytes key, long snapshot) {
        for (long number = pendingSnapshotCounter; number > snapshot; number--) {
            int slot = retainedSlot(number);
            KeyRange[] ranges = scans[slot];
            if (ranges == null || readSummaries[slot] != null) {
                continue;
            }
            for (KeyRange range : ranges) {
                if (range.contains(key)) {
                    return number;
                }
            }
        }
        return 0;
    }

    /**
     * Records a transaction that passed certification: it becomes number {@code ++PSC}.
     *
     * @return its number
     */
    public long record(List<Bytes> readSet, List<Write> writeSet) {
        return record(readSet, writeSet, List.of());
    }

    /**
     * Records a transaction that passed certification, with the ranges it scanned.
     *
     * @return its number
     */
    public long record(List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges) {
        long number = ++pendingSnapshotCounter;
        int slot = slot(number);
        long evicted = numbers[slot];
        Bytes[] evictedWriteKeys = writeKeys[slot];
        List<Bytes> evictedReadKeys = readKeys[slot];
        if (scans[slot] != null && readSummaries[slot] == null) {
            exactScanners--;
        }
        Bytes[] written = new Bytes[writeSet.size()];
        for (int i = 0; i < written.length; i++) {
            written[i] = writeSet.get(i).key();
        }
        numbers[slot] = number;
        writeKeys[slot] = written;
        boolean summarised = usesBloom(readSet.size() + writeSet.size() + ranges.size());
        scans[slot] =
                ranges.isEmpty() ? null : summarised ? new KeyRange[] {span(ranges)} : ranges.toArray(new KeyRange[0]);
        if (scans[slot] != null && !summarised) {
            exactScanners++;
        }
        if (summarised) {
            readKeys[slot] = null;
            readSummaries[slot] = summarise(readSet, writeSet);
            for (Bytes key : written) {
                index.setLastWrite(index.findOrInsert(key), number);
            }
        } else {
            // Immutable lists (a CommitRequest's) are kept as they are; anything else is copied once.
            List<Bytes> reads = List.copyOf(readSet);
            readKeys[slot] = reads;
            readSummaries[slot] = null;
            for (int i = 0, n = reads.size(); i < n; i++) {
                index.setLastRead(index.findOrInsert(reads.get(i)), number);
            }
            for (Bytes key : written) {
                int at = index.findOrInsert(key);
                index.setLastWrite(at, number);
                index.setLastRead(at, number); // a written key counts as read
            }
        }
        if (evictedWriteKeys != null) {
            if (evicted <= orderedUpTo) {
                orderedWrites.evict(evictedWriteKeys, evicted);
            } else {
                orderedUpTo = evicted; // never added: nothing to remove, and it must not be added any more
            }
            pruneKeys(evictedWriteKeys, evicted);
            if (evictedReadKeys != null) {
                pruneKeys(evictedReadKeys, evicted);
            }
        }
        return number;
    }

    /** Removes the index entries of an evicted transaction that no newer retained transaction refreshed. */
    private void pruneKeys(Bytes[] keys, long evictedNumber) {
        for (Bytes key : keys) {
            pruneKey(key, evictedNumber);
        }
    }

    private void pruneKeys(List<Bytes> keys, long evictedNumber) {
        for (int i = 0, n = keys.size(); i < n; i++) {
            pruneKey(keys.get(i), evictedNumber);
        }
    }

    private void pruneKey(Bytes key, long evictedNumber) {
        int at = index.find(key);
        if (at >= 0 && index.lastWrite(at) <= evictedNumber && index.lastRead(at) <= evictedNumber) {
            index.removeAt(at);
        }
    }

    private int slot(long number) {
        return (int) (number % numbers.length);
    }

    /** The slot of a transaction that must still be in the window. */
    private int retainedSlot(long number) {
        int slot = slot(number);
        if (numbers[slot] != number || writeKeys[slot] == null) {
            throw new IllegalStateException("transaction " + number + " is not in the certification window");
        }
        return slot;
    }

    /** The smallest range holding every key of every range: a summarised transaction's scans. */
    private static KeyRange span(List<KeyRange> ranges) {
        KeyRange span = ranges.get(0);
        for (int i = 1, n = ranges.size(); i < n; i++) {
            span = span.span(ranges.get(i));
        }
        return span;
    }

    private BloomFilter<Bytes> summarise(List<Bytes> readSet, List<Write> writeSet) {
        int keys = Math.max(1, readSet.size() + writeSet.size());
        BloomFilter<Bytes> filter = BloomFilter.create(KeyFunnel.INSTANCE, keys, settings.bloomFalsePositiveRate());
        for (int i = 0, n = readSet.size(); i < n; i++) {
            filter.put(readSet.get(i));
        }
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            filter.put(writeSet.get(i).key());
        }
        return filter;
    }

    // ---- state transfer -------------------------------------------------------------------------------------

    /** Writes the window; the exact index is rebuilt from it on read. */
    public void writeTo(ByteWriter out) {
        freeze().writeTo(out);
    }

    /**
     * The window as it is now, to be written later from any thread ({@link Frozen#writeTo}): a copy of the slots'
     * references, in number order. What a slot refers to is never changed once recorded (a later transaction
     * takes the slot with objects of its own), so the copy needs nothing else.
     */
    public Frozen freeze() {
        long first = Math.max(1, pendingSnapshotCounter - numbers.length + 1);
        int count = (int) (pendingSnapshotCounter - first + 1);
        Bytes[][] writes = new Bytes[count][];
        Object[] reads = new Object[count];
        KeyRange[][] ranges = new KeyRange[count][];
        for (int i = 0; i < count; i++) {
            int slot = retainedSlot(first + i);
            writes[i] = writeKeys[slot];
            reads[i] = readSummaries[slot] != null ? readSummaries[slot] : readKeys[slot];
            ranges[i] = scans[slot];
        }
        return new Frozen(pendingSnapshotCounter, first, writes, reads, ranges);
    }

    /** A certification window frozen by {@link #freeze}; immutable. */
    public static final class Frozen {
        private final long pendingSnapshotCounter;
        private final long first;
        private final Bytes[][] writes;
        /** Per transaction, its read summary (a bloom filter) or its read keys (a list). */
        private final Object[] reads;
        /** Per transaction, its scanned ranges as retained (null: none). */
        private final KeyRange[][] ranges;

        private Frozen(long pendingSnapshotCounter, long first, Bytes[][] writes, Object[] reads, KeyRange[][] ranges) {
            this.pendingSnapshotCounter = pendingSnapshotCounter;
            this.first = first;
            this.writes = writes;
            this.reads = reads;
            this.ranges = ranges;
        }

        /**
         * Writes the window as {@link Certifier#writeTo} did when it was frozen. Per transaction, a tag byte says how
         * its reads are kept: bit 0 a bloom summary (else a key list), bit 1 scanned ranges after them. A window
         * without ranges is written byte for byte as before ranges existed (the tag was a boolean).
         */
        @SuppressWarnings("unchecked")
        public void writeTo(ByteWriter out) {
            out.writeLong(pendingSnapshotCounter);
            out.writeLong(first);
            for (int i = 0; i < writes.length; i++) {
                writeKeys(out, writes[i]);
                boolean summarised = reads[i] instanceof BloomFilter;
                out.writeByte((summarised ? TAG_SUMMARISED : 0) | (ranges[i] != null ? TAG_RANGES : 0));
                if (summarised) {
                    ByteArrayOutputStream bloom = new ByteArrayOutputStream();
                    try {
                        ((BloomFilter<Bytes>) reads[i]).writeTo(bloom);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    out.writeBytes(Bytes.wrap(bloom.toByteArray()));
                } else {
                    List<Bytes> keys = (List<Bytes>) reads[i];
                    out.writeInt(keys.size());
                    for (Bytes key : keys) {
                        out.writeBytes(key);
                    }
                }
                if (ranges[i] != null) {
                    out.writeInt(ranges[i].length);
                    for (KeyRange range : ranges[i]) {
                        out.writeBytes(range.from());
                        out.writeNullableBytes(range.to());
                    }
                }
            }
        }
    }

    private static final int TAG_SUMMARISED = 1;
    private static final int TAG_RANGES = 2;

    public static Certifier readFrom(ByteReader in, int partition, CertifierSettings settings) {
        Certifier certifier = new Certifier(partition, settings);
        long counter = in.readLong();
        long first = in.readLong();
        if (counter < 0 || first < 1 || first > counter + 1 || counter - first + 1 > settings.windowTransactions()) {
            throw new MalformedInputException("certifier window [" + first + ", " + counter + "] does not fit K");
        }
        // Replaying the records through record() rebuilds the index exactly as it was.
        certifier.pendingSnapshotCounter = first - 1;
        for (long number = first; number <= counter; number++) {
            Bytes[] writeKeys = readKeys(in);
            List<Write> writes = new ArrayList<>(writeKeys.length);
            for (Bytes key : writeKeys) {
                writes.add(Write.delete(key));
            }
            int tag = in.readByte();
            if ((tag & ~(TAG_SUMMARISED | TAG_RANGES)) != 0) {
                throw new MalformedInputException("unknown certifier record tag " + tag);
            }
            if ((tag & TAG_SUMMARISED) != 0) {
                Bytes raw = in.readBytes();
                BloomFilter<Bytes> summary;
                try {
                    summary = BloomFilter.readFrom(new ByteArrayInputStream(raw.unsafeArray()), KeyFunnel.INSTANCE);
                } catch (IOException | RuntimeException e) {
                    throw new MalformedInputException("bad bloom filter in certifier state: " + e.getMessage());
                }
                long assigned = ++certifier.pendingSnapshotCounter;
                int slot = certifier.slot(assigned);
                certifier.numbers[slot] = assigned;
                certifier.writeKeys[slot] = writeKeys;
                certifier.readSummaries[slot] = summary;
                for (Bytes key : writeKeys) {
                    certifier.index.setLastWrite(certifier.index.findOrInsert(key), assigned);
                }
                if ((tag & TAG_RANGES) != 0) {
                    certifier.scans[slot] = readRanges(in).toArray(new KeyRange[0]);
                }
            } else {
                List<Bytes> reads = List.of(readKeys(in));
                List<KeyRange> ranges = (tag & TAG_RANGES) != 0 ? readRanges(in) : List.of();
                certifier.record(reads, writes, ranges);
            }
        }
        return certifier;
    }

    private static void writeKeys(ByteWriter out, Bytes[] keys) {
        out.writeInt(keys.length);
        for (Bytes key : keys) {
            out.writeBytes(key);
        }
    }

    private static List<KeyRange> readRanges(ByteReader in) {
        int count = in.readCount();
        if (count == 0) {
            throw new MalformedInputException("a certifier record tagged with ranges holds none");
        }
        List<KeyRange> ranges = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Bytes from = in.readBytes();
            Bytes to = in.readNullableBytes();
            if (to != null && from.compareTo(to) >= 0) {
                throw new MalformedInputException("certifier range end " + to + " is not above its start " + from);
            }
            ranges.add(new KeyRange(from, to));
        }
        return ranges;
    }

    private static Bytes[] readKeys(ByteReader in) {
        Bytes[] keys = new Bytes[in.readCount()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = in.readBytes();
        }
        return keys;
    }
}
