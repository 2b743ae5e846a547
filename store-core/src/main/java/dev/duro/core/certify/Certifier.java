package dev.duro.core.certify;

import com.google.common.hash.BloomFilter;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private final Map<Bytes, KeyStamps> index = new HashMap<>();
    private final Retained[] window;
    private long pendingSnapshotCounter;

    /** Last writer and last reader numbers of one key, among the retained transactions. */
    private static final class KeyStamps {
        long lastWrite;
        long lastRead;
    }

    /** One retained certified transaction. Exactly one of {@code readKeys} and {@code readSummary} is set. */
    private static final class Retained {
        final long number;
        final Bytes[] writeKeys;
        final @Nullable Bytes[] readKeys;
        final @Nullable BloomFilter<Bytes> readSummary;

        Retained(long number, Bytes[] writeKeys, @Nullable Bytes[] readKeys, @Nullable BloomFilter<Bytes> summary) {
            this.number = number;
            this.writeKeys = writeKeys;
            this.readKeys = readKeys;
            this.readSummary = summary;
        }
    }

    public Certifier(int partition, CertifierSettings settings) {
        this.partition = partition;
        this.settings = settings;
        this.window = new Retained[settings.windowTransactions()];
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

    /** Whether a transaction with {@code readKeys} read (and written) keys is recorded with a bloom summary. */
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
        KeyStamps stamps = index.get(key);
        if (stamps != null && stamps.lastWrite > snapshot) {
            return AbortReason.readKeyOverwritten(partition, key, stamps.lastWrite, false);
        }
        return null;
    }

    /** The stronger test of §IV-C: no transaction certified after the snapshot read what t writes. */
    private @Nullable AbortReason writesAgainstReads(long snapshot, List<Write> writeSet) {
        for (int i = 0, n = writeSet.size(); i < n; i++) {
            Bytes key = writeSet.get(i).key();
            KeyStamps stamps = index.get(key);
            if (stamps != null && stamps.lastRead > snapshot) {
                return AbortReason.writtenKeyReadConcurrently(partition, key, stamps.lastRead, false);
            }
        }
        if (settings.bloomReadSetKeysMin() == Integer.MAX_VALUE) {
            return null; // no record carries a bloom summary
        }
        for (long number = snapshot + 1; number <= pendingSnapshotCounter; number++) {
            BloomFilter<Bytes> summary = record(number).readSummary;
            if (summary == null) {
                continue;
            }
            for (int i = 0, n = writeSet.size(); i < n; i++) {
                Bytes key = writeSet.get(i).key();
                if (summary.mightContain(key)) {
                    return AbortReason.writtenKeyReadConcurrently(partition, key, number, true);
                }
            }
        }
        return null;
    }

    /**
     * Records a transaction that passed certification: it becomes number {@code ++PSC}.
     *
     * @return its number
     */
    public long record(List<Bytes> readSet, List<Write> writeSet) {
        long number = ++pendingSnapshotCounter;
        int slot = slot(number);
        Retained evicted = window[slot];
        Bytes[] writeKeys = new Bytes[writeSet.size()];
        for (int i = 0; i < writeKeys.length; i++) {
            writeKeys[i] = writeSet.get(i).key();
        }
        Retained record;
        if (usesBloom(readSet.size() + writeSet.size())) {
            record = new Retained(number, writeKeys, null, summarise(readSet, writeSet));
        } else {
            record = new Retained(number, writeKeys, readSet.toArray(new Bytes[0]), null);
            for (Bytes key : record.readKeys) {
                stamps(key).lastRead = number;
            }
        }
        for (Bytes key : writeKeys) {
            KeyStamps stamps = stamps(key);
            stamps.lastWrite = number;
            if (record.readKeys != null) {
                stamps.lastRead = number; // a written key counts as read
            }
        }
        window[slot] = record;
        if (evicted != null) {
            prune(evicted);
        }
        return number;
    }

    private KeyStamps stamps(Bytes key) {
        return index.computeIfAbsent(key, k -> new KeyStamps());
    }

    private void prune(Retained evicted) {
        pruneKeys(evicted.writeKeys, evicted.number);
        if (evicted.readKeys != null) {
            pruneKeys(evicted.readKeys, evicted.number);
        }
    }

    private void pruneKeys(Bytes[] keys, long evictedNumber) {
        for (Bytes key : keys) {
            KeyStamps stamps = index.get(key);
            if (stamps != null && stamps.lastWrite <= evictedNumber && stamps.lastRead <= evictedNumber) {
                index.remove(key);
            }
        }
    }

    private int slot(long number) {
        return (int) (number % window.length);
    }

    private Retained record(long number) {
        Retained record = window[slot(number)];
        if (record == null || record.number != number) {
            throw new IllegalStateException("transaction " + number + " is not in the certification window");
        }
        return record;
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
        out.writeLong(pendingSnapshotCounter);
        long first = Math.max(1, pendingSnapshotCounter - window.length + 1);
        out.writeLong(first);
        for (long number = first; number <= pendingSnapshotCounter; number++) {
            Retained record = record(number);
            writeKeys(out, record.writeKeys);
            out.writeBoolean(record.readSummary != null);
            if (record.readSummary != null) {
                ByteArrayOutputStream bloom = new ByteArrayOutputStream();
                try {
                    record.readSummary.writeTo(bloom);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                out.writeBytes(Bytes.wrap(bloom.toByteArray()));
            } else {
                writeKeys(out, record.readKeys);
            }
        }
    }

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
            if (in.readBoolean()) {
                Bytes raw = in.readBytes();
                BloomFilter<Bytes> summary;
                try {
                    summary = BloomFilter.readFrom(new ByteArrayInputStream(raw.unsafeArray()), KeyFunnel.INSTANCE);
                } catch (IOException | RuntimeException e) {
                    throw new MalformedInputException("bad bloom filter in certifier state: " + e.getMessage());
                }
                long assigned = ++certifier.pendingSnapshotCounter;
                certifier.window[certifier.slot(assigned)] = new Retained(assigned, writeKeys, null, summary);
                for (Bytes key : writeKeys) {
                    certifier.stamps(key).lastWrite = assigned;
                }
            } else {
                certifier.record(List.of(readKeys(in)), writes);
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

    private static Bytes[] readKeys(ByteReader in) {
        Bytes[] keys = new Bytes[in.readCount()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = in.readBytes();
        }
        return keys;
    }
}
