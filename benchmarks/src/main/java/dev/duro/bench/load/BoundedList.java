package dev.duro.bench.load;

import dev.duro.core.Bytes;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A list of short entries stored as one value: each entry is one length byte and then its bytes, oldest first.
 * Appending keeps only the newest {@code max} entries, so a value never outgrows {@code max × 256} bytes. A
 * missing value (null) is the empty list.
 */
final class BoundedList {
    static final int ENTRY_BYTES_MAX = 255;

    private BoundedList() {}

    static List<Bytes> decode(Bytes encoded) {
        List<Bytes> entries = new ArrayList<>();
        if (encoded == null) {
            return entries;
        }
        byte[] bytes = encoded.unsafeArray();
        int at = 0;
        while (at < bytes.length) {
            int length = bytes[at] & 0xff;
            if (at + 1 + length > bytes.length) {
                throw new IllegalStateException("not a bounded list: entry past the end at byte " + at);
            }
            entries.add(Bytes.copyOf(bytes, at + 1, length));
            at += 1 + length;
        }
        return entries;
    }

    static Bytes encode(List<Bytes> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Bytes entry : entries) {
            if (entry.size() > ENTRY_BYTES_MAX) {
                throw new IllegalArgumentException("entry of " + entry.size() + " bytes, max " + ENTRY_BYTES_MAX);
            }
            out.write(entry.size());
            out.write(entry.unsafeArray(), 0, entry.size());
        }
        return Bytes.wrap(out.toByteArray());
    }

    /** {@code encoded} with {@code entry} appended, dropping the oldest entries beyond {@code max}. */
    static Bytes append(Bytes encoded, Bytes entry, int max) {
        List<Bytes> entries = decode(encoded);
        entries.add(entry);
        return encode(entries.subList(Math.max(0, entries.size() - max), entries.size()));
    }

    /** Like {@link #append}, but a list that already holds {@code entry} is returned unchanged. */
    static Bytes appendAbsent(Bytes encoded, Bytes entry, int max) {
        List<Bytes> entries = decode(encoded);
        if (entries.contains(entry)) {
            return encode(entries);
        }
        return append(encoded, entry, max);
    }
}
