package dev.duro.core.certify;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The written keys of the certification window in key order, each with the number of the newest retained
 * transaction that wrote it: what a scanned range is certified against, as FoundationDB's resolver keeps its
 * conflict ranges (docs/ranges.md). A range conflicts with the window's writes after a snapshot {@code st} iff
 * some key in it maps to a number above {@code st}.
 *
 * <p>Filled lazily, by the certifier, from the window it already keeps ({@link Certifier}): only a transaction that
 * scanned a range needs it, so a partition whose transactions never scan pays nothing for it on the commit path,
 * and one that does pays an insertion per written key once. Entries whose writer left the window are removed when
 * it leaves (unless a newer writer refreshed them), so the index holds at most the distinct keys the window wrote.
 * Whether or not it is filled is invisible in the decisions: the answer for a range is the same either way.
 */
final class OrderedWriteIndex {
    private final TreeMap<Bytes, Long> newestWriter = new TreeMap<>();

    int size() {
        return newestWriter.size();
    }

    /** Adds the writes of transaction {@code number}, newer than every transaction added before. */
    void add(Bytes[] keys, long number) {
        for (Bytes key : keys) {
            newestWriter.put(key, number);
        }
    }

    /** Removes the keys transaction {@code number}, which leaves the window, wrote and no newer one rewrote. */
    void evict(Bytes[] keys, long number) {
        for (Bytes key : keys) {
            Long newest = newestWriter.get(key);
            if (newest != null && newest <= number) {
                newestWriter.remove(key);
            }
        }
    }

    /**
     * The smallest key of {@code range} written after {@code snapshot}, with its newest writer, or null. Walks the
     * range's written keys in order and stops at the first that qualifies.
     */
    @Nullable
    Map.Entry<Bytes, Long> firstWrittenAfter(KeyRange range, long snapshot) {
        NavigableMap<Bytes, Long> inRange = range.to() == null
                ? newestWriter.tailMap(range.from(), true)
                : newestWriter.subMap(range.from(), true, range.to(), false);
        for (Map.Entry<Bytes, Long> entry : inRange.entrySet()) {
            if (entry.getValue() > snapshot) {
                return entry;
            }
        }
        return null;
    }
}
