package dev.duro.core.certify;

import com.google.common.hash.BloomFilter;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
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
 *       the question is whether <em>any</em> number above {@code st} touched the key. Reads enter the index when
 *       the first stronger test after them asks ({@link CertificationWindow}), so a local workload never indexes
 *       them.
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
 * <p>Writesets are always retained exactly (they are needed for the bloom check and the ordered index). When a
 * transaction falls out of the window, its index entries that no newer transaction refreshed can no longer decide
 * anything: any transaction old enough to care about them aborts as too old. They stay until the index fills and
 * sweeps them out ({@link KeyStampIndex}), so memory is bounded by a small multiple of K times the transaction
 * size.
 *
 * <p>Every decision is a function of the delivered sequence and the settings only; the whole state is written
 * to and read from the partition's snapshot.
 *
 * <p>This class runs the tests; {@link CertificationWindow} keeps the window and its indexes, and
 * {@link FrozenWindow} writes and reads the window's snapshot form.
 */
public final class Certifier {
    private final CertifierSettings settings;
    private final int partition;
    private final CertificationWindow window;
    private final KeyStampIndex index;
    /*
     * The reads of the transaction certified last, as its test found them: the index's object for each read the index
     * holds, the read's own object otherwise. Recording that transaction keeps this array instead of the objects its
     * log entry was decoded into (docs/performance.md, "One object per key"). Set only when the test probed every
     * read and passed and the transaction keeps its read keys, for the readset probedReadSet, and cleared by the next
     * certify or record.
     */
    private @Nullable Bytes[] probedReads;
    private @Nullable List<Bytes> probedReadSet;

    public Certifier(int partition, CertifierSettings settings) {
        this.partition = partition;
        this.settings = settings;
        this.window = new CertificationWindow(settings);
        this.index = window.index();
    }

    public CertifierSettings settings() {
        return settings;
    }

    /** PSC: the number of the last transaction that passed certification. */
    public long pendingSnapshotCounter() {
        return window.pendingSnapshotCounter();
    }

    /** The oldest snapshot that can still pass certification. */
    public long oldestCertifiableSnapshot() {
        return Math.max(0, window.pendingSnapshotCounter() - settings.windowTransactions());
    }

    /**
     * Number of keys in the exact index that can still decide something (for tests of the memory bound): those with a
     * number the window retains. Reads are indexed only once a global transaction needs them, so the count depends
     * on when the last one came.
     */
    public int indexedKeys() {
        return index.liveCount(window.staleUpTo());
    }

    /** The exact index's slots, entries that can no longer decide anything included (for tests of its memory bound). */
    public int indexSlots() {
        return index.capacity();
    }

    /** Number of keys in the ordered index of written keys (for tests of its memory bound). */
    public int orderedWrittenKeys() {
        return window.orderedWrittenKeys();
    }

    /**
     * Whether a transaction with {@code readKeys} read (and written) keys and scanned ranges is recorded with a
     * bloom summary.
     */
    public boolean usesBloom(int readKeys) {
        return window.usesBloom(readKeys);
    }

    /**
     * Certifies a transaction against everything certified after its snapshot. Changes no state a decision depends on
     * (see the overload below).
     *
     * @param readSet the keys read at this partition (the written keys count as read too, S-DUR's ws ⊆ rs)
     * @return null if it passes, or why it must abort
     */
    public @Nullable AbortReason certify(long snapshot, List<Bytes> readSet, List<Write> writeSet, boolean global) {
        return certify(snapshot, readSet, writeSet, List.of(), global);
    }

    /**
     * Certifies a transaction that also scanned {@code ranges}: each is a read of every key in it. Changes no state a
     * decision depends on: it may fill the ordered index of written keys, and a global's stronger test may index the
     * retained reads (and so sweep the exact index), which answer alike either way.
     *
     * @return null if it passes, or why it must abort; a range conflict names the smallest key of the range written
     *     after the snapshot
     */
    public @Nullable AbortReason certify(
            long snapshot, List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges, boolean global) {
        probedReads = null;
        probedReadSet = null;
        long pendingSnapshotCounter = window.pendingSnapshotCounter();
        if (snapshot < oldestCertifiableSnapshot()) {
            return AbortReason.snapshotTooOld(partition, oldestCertifiableSnapshot());
        }
        if (snapshot > pendingSnapshotCounter) {
            return AbortReason.invalidSnapshot(partition, pendingSnapshotCounter);
        }
        if (snapshot == pendingSnapshotCounter) {
            return null; // nothing was certified after the snapshot
        }
        // A summarised transaction keeps no read keys (CertificationWindow.record): nothing to collect for it.
        boolean keepsReads = !window.summarises(readSet, writeSet, ranges);
        AbortReason reason = readsAgainstWrites(snapshot, readSet, writeSet, keepsReads);
        if (reason == null && !ranges.isEmpty()) {
            reason = rangesAgainstWrites(snapshot, ranges);
        }
        if (reason == null && global && settings.strongerTestForGlobal()) {
            reason = writesAgainstReads(snapshot, writeSet);
        }
        return reason;
    }

    private @Nullable AbortReason readsAgainstWrites(
            long snapshot, List<Bytes> readSet, List<Write> writeSet, boolean keepsReads) {
        Bytes[] found = keepsReads ? new Bytes[readSet.size()] : null;
        for (int i = 0, n = readSet.size(); i < n; i++) {
            Bytes key = readSet.get(i);
            int slot = index.find(key);
            AbortReason reason = overwritten(snapshot, key, slot);
            if (reason != null) {
                return reason;
            }
            if (found != null) {
                found[i] = slot >= 0 ? index.keyAt(slot) : key;
            }
        }
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            Bytes key = writeSet.get(i).key();
            AbortReason reason = overwritten(snapshot, key, index.find(key));
            if (reason != null) {
                return reason;
            }
        }
        if (found != null) {
            probedReads = found;
            probedReadSet = readSet;
        }
        return null;
    }

    /** Whether {@code key}, at {@code slot} of the index (or -1), was written after {@code snapshot}. */
    private @Nullable AbortReason overwritten(long snapshot, Bytes key, int slot) {
        if (slot >= 0 && index.lastWrite(slot) > snapshot) {
            return AbortReason.readKeyOverwritten(partition, key, index.lastWrite(slot), false);
        }
        return null;
    }

    /** A range conflicts with the smallest key in it that a transaction after the snapshot wrote. */
    private @Nullable AbortReason rangesAgainstWrites(long snapshot, List<KeyRange> ranges) {
        OrderedWriteIndex orderedWrites = window.orderedWrites();
        for (int i = 0, n = ranges.size(); i < n; i++) {
            OrderedWriteIndex.Written written = orderedWrites.firstWrittenAfter(ranges.get(i), snapshot);
            if (written != null) {
                return AbortReason.readKeyOverwritten(partition, written.key(), written.number(), false);
            }
        }
        return null;
    }

    /**
     * The stronger test of §IV-C: no transaction certified after the snapshot read what t writes, by a point read or
     * inside a scanned range.
     */
    private @Nullable AbortReason writesAgainstReads(long snapshot, List<Write> writeSet) {
        KeyStampIndex readers = window.indexedReads();
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            Bytes key = writeSet.get(i).key();
            int slot = readers.find(key);
            long reader = slot >= 0 ? readers.lastRead(slot) : 0;
            if (window.hasExactScanners()) {
                reader = Math.max(reader, newestExactScannerOf(key, snapshot));
            }
            if (reader > snapshot) {
                return AbortReason.writtenKeyReadConcurrently(partition, key, reader, false);
            }
        }
        if (settings.bloomReadSetKeysMin() == Integer.MAX_VALUE) {
            return null; // no record carries a bloom summary
        }
        for (long number = snapshot + 1; number <= window.pendingSnapshotCounter(); number++) {
            int slot = window.retainedSlot(number);
            BloomFilter<Bytes> summary = window.readSummary(slot);
            if (summary == null) {
                continue;
            }
            KeyRange[] scans = window.scans(slot);
            KeyRange span = scans == null ? null : scans[0];
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
        for (long number = window.pendingSnapshotCounter(); number > snapshot; number--) {
            int slot = window.retainedSlot(number);
            KeyRange[] ranges = window.scans(slot);
            if (ranges == null || window.readSummary(slot) != null) {
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

    /** Reads ahead what certifying and recording {@code writeSet} next will read (CertificationWindow.touchNext). */
    public int touchNext(List<Write> writeSet) {
        return window.touchNext(writeSet);
    }

    /**
     * Records a transaction that passed certification: it becomes number {@code ++PSC}.
     *
     * @return its number
     */
    public long record(List<Bytes> readSet, List<Write> writeSet) {
        return window.record(readSet, writeSet, List.of());
    }

    /**
     * Records a transaction that passed certification, with the ranges it scanned.
     *
     * @return its number
     */
    public long record(List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges) {
        return record(readSet, writeSet, ranges, KeyInterner.AS_GIVEN);
    }

    /**
     * Records a transaction that passed certification, with the ranges it scanned, keeping one object per key where
     * it can (docs/performance.md, "One object per key"): a key new to the index is entered as {@code interner}'s
     * object for it, and the reads that {@link #certify} just found in the index as the index's objects. Object
     * identity only: decisions compare keys by content.
     *
     * @return its number
     */
    public long record(List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges, KeyInterner interner) {
        Bytes[] internedReads = probedReadSet == readSet ? probedReads : null;
        probedReads = null;
        probedReadSet = null;
        return window.record(readSet, internedReads, writeSet, ranges, interner);
    }

    /**
     * The written keys of transaction {@code number} as the window keeps them (one object per key, in the order of
     * its writeset), or null if the window no longer holds it. The caller must not change the array.
     */
    public @Nullable Bytes[] writtenKeys(long number) {
        return window.writtenKeys(number);
    }

    // ---- state transfer -------------------------------------------------------------------------------------

    /** Writes the window; the exact index is rebuilt from it on read. */
    public void writeTo(ByteWriter out) {
        freeze().writeTo(out);
    }

    /**
     * The window as it is now, to be written later from any thread ({@link FrozenWindow#writeTo}): a copy of the
     * slots' references, in number order.
     */
    public FrozenWindow freeze() {
        return window.freeze();
    }

    /** Hands back a frozen window no longer read, for the next {@link #freeze} to copy into. */
    public void recycle(FrozenWindow frozen) {
        window.recycle(frozen);
    }

    /** Reads a window written by {@link #writeTo} (or {@link FrozenWindow#writeTo}), rebuilding the index. */
    public static Certifier readFrom(ByteReader in, int partition, CertifierSettings settings) {
        return FrozenWindow.readFrom(in, partition, settings);
    }

    CertificationWindow window() {
        return window;
    }
}
