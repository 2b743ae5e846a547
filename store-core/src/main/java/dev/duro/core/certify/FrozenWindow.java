package dev.duro.core.certify;

import com.google.common.hash.BloomFilter;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.util.Chunked;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A certification window frozen by {@link Certifier#freeze}, and the window's snapshot format: {@link #writeTo}
 * writes it, {@link Certifier#readFrom} reads it back ({@link #readFrom}). Immutable: it holds copies of the slot
 * arrays (in chunks, {@link Chunked}), and recording never changes what a slot refers to, so it may be written from
 * any thread.
 */
public final class FrozenWindow {
    private static final int TAG_SUMMARISED = 1;
    private static final int TAG_RANGES = 2;

    private final long pendingSnapshotCounter;
    private final long first;
    /** The window's slots: transaction {@code n} in slot {@code n % slots}. */
    private final int slots;
    /** The window's slot arrays as they were, copied in chunks ({@link Chunked}). */
    private final Bytes[][][] writeKeys;

    private final Bytes[][][] readKeys;
    private final BloomFilter<Bytes>[][] readSummaries;
    private final KeyRange[][][] scans;

    FrozenWindow(
            long pendingSnapshotCounter,
            long first,
            Bytes[][] writeKeys,
            Bytes[][] readKeys,
            BloomFilter<Bytes>[] readSummaries,
            KeyRange[][] scans,
            @Nullable FrozenWindow reuse) {
        this.pendingSnapshotCounter = pendingSnapshotCounter;
        this.first = first;
        this.slots = writeKeys.length;
        this.writeKeys = Chunked.copy(writeKeys, reuse == null ? null : reuse.writeKeys);
        this.readKeys = Chunked.copy(readKeys, reuse == null ? null : reuse.readKeys);
        this.readSummaries = Chunked.copy(readSummaries, reuse == null ? null : reuse.readSummaries);
        this.scans = Chunked.copy(scans, reuse == null ? null : reuse.scans);
    }

    /**
     * Writes the window as {@link Certifier#writeTo} did when it was frozen. Per transaction, a tag byte says how
     * its reads are kept: bit 0 a bloom summary (else a key list), bit 1 scanned ranges after them. A window
     * without ranges is written byte for byte as before ranges existed (the tag was a boolean).
     */
    public void writeTo(ByteWriter out) {
        out.writeLong(pendingSnapshotCounter);
        out.writeLong(first);
        for (long number = first; number <= pendingSnapshotCounter; number++) {
            int slot = (int) (number % slots);
            Bytes[] written = Chunked.at(writeKeys, slot);
            if (written == null) {
                throw new IllegalStateException("transaction " + number + " is not in the frozen certification window");
            }
            writeKeys(out, written);
            BloomFilter<Bytes> summary = Chunked.at(readSummaries, slot);
            KeyRange[] ranges = Chunked.at(scans, slot);
            out.writeByte((summary != null ? TAG_SUMMARISED : 0) | (ranges != null ? TAG_RANGES : 0));
            if (summary != null) {
                ByteArrayOutputStream bloom = new ByteArrayOutputStream();
                try {
                    summary.writeTo(bloom);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                out.writeBytes(Bytes.wrap(bloom.toByteArray()));
            } else {
                writeKeys(out, Chunked.at(readKeys, slot));
            }
            if (ranges != null) {
                out.writeInt(ranges.length);
                for (KeyRange range : ranges) {
                    out.writeBytes(range.from());
                    out.writeNullableBytes(range.to());
                }
            }
        }
    }

    /** Drops the copies' references once the window is written, before it is handed back for reuse. */
    public void clear() {
        Chunked.clear(writeKeys);
        Chunked.clear(readKeys);
        Chunked.clear(readSummaries);
        Chunked.clear(scans);
    }

    /** Reads a window written by {@link #writeTo} into a new certifier; see {@link Certifier#readFrom}. */
    static Certifier readFrom(ByteReader in, int partition, CertifierSettings settings) {
        Certifier certifier = new Certifier(partition, settings);
        CertificationWindow window = certifier.window();
        long counter = in.readLong();
        long first = in.readLong();
        if (counter < 0 || first < 1 || first > counter + 1 || counter - first + 1 > settings.windowTransactions()) {
            throw new MalformedInputException("certifier window [" + first + ", " + counter + "] does not fit K");
        }
        // Replaying the records through record() rebuilds the index exactly as it was.
        window.startAfter(first - 1);
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
                KeyRange[] span = (tag & TAG_RANGES) != 0 ? readRanges(in).toArray(new KeyRange[0]) : null;
                window.restoreSummarised(writeKeys, summary, span);
            } else {
                List<Bytes> reads = List.of(readKeys(in));
                List<KeyRange> ranges = (tag & TAG_RANGES) != 0 ? readRanges(in) : List.of();
                window.record(reads, writes, ranges);
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
