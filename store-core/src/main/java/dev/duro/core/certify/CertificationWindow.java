package dev.duro.core.certify;

import com.google.common.hash.BloomFilter;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The window of {@link Certifier}: the last K certified transactions, numbered up to {@code PSC}, and the two
 * indexes kept over them, the exact per-key {@link KeyStampIndex} and the {@link OrderedWriteIndex} of written keys.
 * It records a transaction that passed (evicting the one K numbers older, whose index entries that no newer
 * transaction refreshed can no longer decide anything and go at the index's next sweep) and says what is kept of each
 * retained one. It takes no decision: the tests are the
 * certifier's, and read the window through the accessors here.
 *
 * <p>Two parts of the indexes are filled only when a test first needs them, from the transactions the window keeps
 * anyway: the ordered index of written keys (only scanned ranges read it), and the {@code lastRead} of keys that were
 * read and not written (only the stronger test of a global transaction reads it). A partition that certifies local
 * point transactions only never pays for either; one that certifies a global transaction now and then indexes the
 * reads since the last one, as it would have one by one (docs/performance.md, "Reads indexed when a global
 * transaction needs them").
 */
final class CertificationWindow {
    private final CertifierSettings settings;
    private final KeyStampIndex index = new KeyStampIndex();
    /*
     * The window: a ring of the last K certified transactions, transaction number n in slot n % K, held in
     * parallel arrays rather than one object per transaction. Exactly one of readKeys[slot] and
     * readSummaries[slot] is set for an occupied slot.
     */
    private final long[] numbers;
    private final Bytes[][] writeKeys;
    private final Bytes[][] readKeys;
    private final BloomFilter<Bytes>[] readSummaries;
    /** A slot's scanned ranges (null: none): exact, or their span when the slot holds a read summary. */
    private final KeyRange[][] scans;
    /** A frozen window handed back ({@link #recycle}) for the next freeze to copy into; null if none. */
    @Nullable
    private FrozenWindow spare;
    /** Occupied slots with exact ranges; while 0 the stronger test skips looking for range readers. */
    private int exactScanners;

    /**
     * Every retained transaction numbered up to here recorded with exact reads has its read keys' {@code lastRead} in
     * {@link #index}; those numbered above have only their written keys there until {@link #indexedReads} is asked.
     */
    private long readsIndexedUpTo;

    private final OrderedWriteIndex orderedWrites = new OrderedWriteIndex();
    /** Every retained transaction numbered up to here has its writes in {@link #orderedWrites}. */
    private long orderedUpTo;

    private long pendingSnapshotCounter;

    @SuppressWarnings("unchecked")
    CertificationWindow(CertifierSettings settings) {
        this.settings = settings;
        int k = settings.windowTransactions();
        this.numbers = new long[k];
        this.writeKeys = new Bytes[k][];
        this.readKeys = new Bytes[k][];
        this.readSummaries = new BloomFilter[k];
        this.scans = new KeyRange[k][];
    }

    /** PSC: the number of the last transaction recorded. */
    long pendingSnapshotCounter() {
        return pendingSnapshotCounter;
    }

    /**
     * The exact index: per key, the last retained writer, and the last retained reader among the transactions whose
     * reads are indexed ({@link #indexedReads} indexes them all). {@code lastWrite} is always complete.
     */
    KeyStampIndex index() {
        return index;
    }

    /** The exact index with the read keys of every retained transaction in it: {@code lastRead} is complete. */
    KeyStampIndex indexedReads() {
        long stale = staleUpTo();
        for (long number = firstRetainedAfter(readsIndexedUpTo); number <= pendingSnapshotCounter; number++) {
            Bytes[] reads = readKeys[retainedSlot(number)];
            if (reads == null) {
                continue; // summarised: its reads are in its bloom filter, its written keys indexed already
            }
            for (Bytes read : reads) {
                int at = index.findOrInsert(read, KeyInterner.AS_GIVEN, stale);
                // A written key's lastRead was set when a newer transaction wrote it: keep the newest reader.
                index.setLastRead(at, Math.max(index.lastRead(at), number));
            }
        }
        readsIndexedUpTo = pendingSnapshotCounter;
        return index;
    }

    /** Whether a retained transaction kept its scanned ranges exactly (the stronger test must then look at them). */
    boolean hasExactScanners() {
        return exactScanners > 0;
    }

    /** The read summary of the transaction in {@code slot}, or null if it kept its read keys. */
    @Nullable
    BloomFilter<Bytes> readSummary(int slot) {
        return readSummaries[slot];
    }

    /** The scanned ranges of the transaction in {@code slot} (null: none): exact, or their span if summarised. */
    @Nullable
    KeyRange[] scans(int slot) {
        return scans[slot];
    }

    /** Whether a transaction with {@code readKeys} read (and written) keys and scanned ranges is summarised. */
    boolean usesBloom(int readKeys) {
        return readKeys >= settings.bloomReadSetKeysMin();
    }

    /** Whether recording a transaction with these sets keeps a read summary rather than its read keys. */
    boolean summarises(List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges) {
        return usesBloom(readSet.size() + writeSet.size() + ranges.size());
    }

    int orderedWrittenKeys() {
        return orderedWrites.size();
    }

    /** The ordered index of written keys, with the writes of every retained transaction added first. */
    OrderedWriteIndex orderedWrites() {
        catchUpOrderedWrites();
        return orderedWrites;
    }

    /** Adds the writes of the retained transactions not yet in the ordered index. */
    private void catchUpOrderedWrites() {
        for (long number = firstRetainedAfter(orderedUpTo); number <= pendingSnapshotCounter; number++) {
            orderedWrites.add(writeKeys[retainedSlot(number)], number);
        }
        orderedUpTo = pendingSnapshotCounter;
    }

    /** Records a transaction without ranges, keeping its keys as given. */
    long record(List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges) {
        return record(readSet, null, writeSet, ranges, KeyInterner.AS_GIVEN);
    }

    /**
     * Records a transaction that passed certification, with the ranges it scanned: it becomes number {@code ++PSC}.
     * The window keeps one object per key where it can (docs/performance.md, "One object per key"): a written key
     * the index holds already is kept as the index's object, one it does not is entered as {@code interner}'s, and
     * the reads as {@code internedReads} when given (the index's objects for them, as the certification test found
     * them, equal to {@code readSet} element by element).
     *
     * @return its number
     */
    long record(
            List<Bytes> readSet,
            @Nullable Bytes[] internedReads,
            List<Write> writeSet,
            List<KeyRange> ranges,
            KeyInterner interner) {
        long number = ++pendingSnapshotCounter;
        int slot = slot(number);
        long evicted = numbers[slot];
        Bytes[] evictedWriteKeys = writeKeys[slot];
        if (scans[slot] != null && readSummaries[slot] == null) {
            exactScanners--;
        }
        boolean summarised = summarises(readSet, writeSet, ranges);
        Bytes[] written = new Bytes[writeSet.size()];
        long stale = staleUpTo();
        for (int i = 0; i < written.length; i++) {
            int at = index.findOrInsert(writeSet.get(i).key(), interner, stale);
            written[i] = index.keyAt(at);
            index.setLastWrite(at, number);
            if (!summarised) {
                index.setLastRead(at, number); // a written key counts as read
            }
        }
        numbers[slot] = number;
        writeKeys[slot] = written;
        scans[slot] =
                ranges.isEmpty() ? null : summarised ? new KeyRange[] {span(ranges)} : ranges.toArray(new KeyRange[0]);
        if (scans[slot] != null && !summarised) {
            exactScanners++;
        }
        if (summarised) {
            readKeys[slot] = null;
            readSummaries[slot] = summarise(readSet, writeSet);
        } else {
            // The reads go into the index only when a stronger test asks for them (indexedReads).
            readKeys[slot] = internedReads != null ? internedReads : readSet.toArray(new Bytes[0]);
            readSummaries[slot] = null;
        }
        // The evicted transaction's entries in the exact index stay until a sweep (KeyStampIndex): they can no longer
        // decide anything.
        if (evictedWriteKeys != null) {
            if (evicted <= orderedUpTo) {
                orderedWrites.evict(evictedWriteKeys, evicted);
            } else {
                orderedUpTo = evicted; // never added: nothing to remove, and it must not be added any more
            }
        }
        return number;
    }

    /**
     * Reads ahead what recording a transaction with {@code writeSet} next will read: the index slots of its keys, so
     * that their cache misses overlap. Changes nothing.
     */
    int touchNext(List<Write> writeSet) {
        int sink = 0;
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            sink += index.touch(writeSet.get(i).key());
        }
        return sink;
    }

    /**
     * The newest transaction number that no longer decides anything: the window's last evicted one. Every snapshot
     * still certifiable is at or above it, so an index entry whose numbers are both at or below it can go.
     */
    long staleUpTo() {
        return pendingSnapshotCounter - numbers.length;
    }

    /** The written keys of transaction {@code number} as recorded, or null if it is not in the window. */
    @Nullable
    Bytes[] writtenKeys(long number) {
        int slot = slot(number);
        return number > 0 && numbers[slot] == number ? writeKeys[slot] : null;
    }

    /** The read keys kept for transaction {@code number} (null if summarised), for tests. */
    @Nullable
    Bytes[] readKeys(long number) {
        return readKeys[retainedSlot(number)];
    }

    /** The number of the oldest retained transaction numbered above {@code number}. */
    private long firstRetainedAfter(long number) {
        return Math.max(number + 1, pendingSnapshotCounter - numbers.length + 1);
    }

    private int slot(long number) {
        return (int) (number % numbers.length);
    }

    /** The slot of a transaction that must still be in the window. */
    int retainedSlot(long number) {
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

    /**
     * The window as it is now ({@link Certifier#freeze}): a copy of the slot arrays in chunks (those of the last
     * frozen window handed back, if any), which {@link FrozenWindow} puts in number order later. What a slot refers
     * to is never changed once recorded (a later transaction takes the slot with objects of its own), so the copy
     * needs nothing else.
     */
    FrozenWindow freeze() {
        long first = firstRetainedAfter(0);
        FrozenWindow reuse = spare;
        spare = null;
        return new FrozenWindow(
                pendingSnapshotCounter, first, writeKeys, readKeys, readSummaries, scans, reuse); // copied there
    }

    /**
     * Hands back a frozen window no longer read (its snapshot written or dropped), whose chunks the next {@link
     * #freeze} copies into rather than allocating (docs/performance.md, "Freezes without humongous copies, then
     * without allocation").
     */
    void recycle(FrozenWindow frozen) {
        spare = frozen;
    }

    /** Before a restore records its first transaction: the window starts after number {@code last}. */
    void startAfter(long last) {
        pendingSnapshotCounter = last;
    }

    /**
     * Restores the next transaction as it was recorded with a read summary: its written keys go into the exact
     * index, its summary and ranges (their span) are kept as they were.
     */
    void restoreSummarised(Bytes[] written, BloomFilter<Bytes> summary, @Nullable KeyRange[] ranges) {
        long assigned = ++pendingSnapshotCounter;
        int slot = slot(assigned);
        numbers[slot] = assigned;
        writeKeys[slot] = written;
        readSummaries[slot] = summary;
        long stale = staleUpTo();
        for (Bytes key : written) {
            index.setLastWrite(index.findOrInsert(key, KeyInterner.AS_GIVEN, stale), assigned);
        }
        if (ranges != null) {
            scans[slot] = ranges;
        }
    }
}
