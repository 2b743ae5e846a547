package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.StoreEntry;
import dev.duro.core.Write;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ScanReply;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * One scan of a transaction, across partitions: asks the partitions that hold keys of the range for pages of it,
 * merges their answers in key order with the transaction's own buffered writes, and stops at the limit. It then
 * says which part of the range each partition was observed over, which an update transaction certifies.
 *
 * <p>How partitions are visited depends on the partitioner:
 *
 * <ol>
 *   <li>Range partitioner: the partitions the range crosses hold consecutive slices of it, so they are read one
 *       after the other in the scan's order, and a partition is asked only if the limit was not reached before
 *       it.
 *   <li>Hash partitioner: any partition may hold any key of the range, so every partition is asked at once for
 *       up to the keys still wanted, and their answers are merged (a k-way merge); a partition whose keys the
 *       merge used up is asked for its next page.
 * </ol>
 *
 * <p>What was observed: when the answer holds fewer keys than the limit, the whole range (every partition read
 * its slice to the end); when the limit cut it, the range up to and including the last key returned, from the
 * start (ascending) or the end (descending), intersected with each partition's slice. Keys beyond the last one
 * returned were never read, so they are not certified: an insert there does not abort the transaction.
 *
 * <p>The reserved keys (docs/auth.md) are left out of every range before anything is asked.
 */
final class RangeScan {
    /** Asks one partition for the present keys of {@code range}, at most {@code limit}, at the transaction's snapshot. */
    @FunctionalInterface
    interface PageSource {
        CompletableFuture<ScanReply> page(int partition, KeyRange range, int limit);
    }

    /** The keys found, in the scan's order, and per partition the part of the range observed there. */
    record Result(List<KeyValue> entries, Map<Integer, List<KeyRange>> observed) {}

    private final ClusterView view;
    private final boolean descending;
    private final PageSource source;
    private final List<Cursor> cursors = new ArrayList<>();
    /** Own writes inside the range: a page asks for this many keys more than are still wanted. */
    private final int ownWrites;
    /** Keys the answer still lacks. */
    private int wanted;

    private RangeScan(ClusterView view, boolean descending, PageSource source, int limit, int ownWrites) {
        this.view = view;
        this.descending = descending;
        this.source = source;
        this.wanted = limit;
        this.ownWrites = ownWrites;
    }

    /** How many keys a page asks for: those still wanted, plus the own writes that may hide or replace some. */
    private int pageLimit() {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (long) wanted + ownWrites));
    }

    /**
     * Scans {@code asked}.
     *
     * @param own the transaction's buffered writes inside {@code asked}: a put shows its value (replacing the
     *     stored one), a delete hides the key
     */
    static Result run(
            ClusterView view, KeyRange asked, int limit, boolean descending, List<Write> own, PageSource source) {
        if (limit < 1) {
            throw new IllegalArgumentException("a scan's limit is at least 1, was " + limit);
        }
        List<KeyValue> found = new ArrayList<>();
        RangeScan scan = new RangeScan(view, descending, source, limit, own.size());
        Stream stored = scan.stream(asked);
        TreeMap<Bytes, Write> ownByKey = new TreeMap<>();
        own.forEach(write -> ownByKey.put(write.key(), write));
        List<Write> ownInOrder = new ArrayList<>(ownByKey.values());
        if (descending) {
            Collections.reverse(ownInOrder);
        }
        int nextOwn = 0;
        while (found.size() < limit) {
            StoreEntry next = stored.peek();
            Write write = nextOwn < ownInOrder.size() ? ownInOrder.get(nextOwn) : null;
            if (next == null && write == null) {
                break;
            }
            int order = next == null ? -1 : write == null ? 1 : scan.compare(write.key(), next.key());
            if (order <= 0) {
                Write ownWrite = Objects.requireNonNull(write, "the transaction's next write");
                nextOwn++;
                if (order == 0) {
                    stored.pop(); // the transaction's own write replaces or deletes the stored value
                }
                Bytes value = ownWrite.value();
                if (value != null) {
                    found.add(new KeyValue(ownWrite.key(), value));
                }
            } else {
                StoreEntry entry = Objects.requireNonNull(next, "the next stored entry");
                stored.pop();
                found.add(new KeyValue(entry.key(), entry.value()));
            }
            scan.wanted = limit - found.size();
        }
        KeyRange observed = found.size() < limit
                ? asked
                : KeyRanges.observedUpTo(asked, found.get(found.size() - 1).key(), descending);
        return new Result(List.copyOf(found), scan.observedBy(observed));
    }

    private int compare(Bytes a, Bytes b) {
        return descending ? b.compareTo(a) : a.compareTo(b);
    }

    /** The stored keys of {@code asked} in the scan's order, from every partition that holds some. */
    private Stream stream(KeyRange asked) {
        List<KeyRange> parts = new ArrayList<>(KeyRanges.withoutReserved(asked));
        if (descending) {
            Collections.reverse(parts);
        }
        List<Stream> streams = new ArrayList<>();
        for (KeyRange part : parts) {
            List<Stream> slices = new ArrayList<>();
            for (ClusterView.PartitionRange slice : view.partitionsOf(part)) {
                Cursor cursor = new Cursor(slice.partition(), slice.range());
                cursors.add(cursor);
                slices.add(cursor);
            }
            if (view.ordersKeys()) {
                if (descending) {
                    Collections.reverse(slices);
                }
                streams.addAll(slices);
            } else {
                streams.add(new Merge(slices));
            }
        }
        return new Concatenation(streams);
    }

    /** Per partition asked, the part of its slice inside {@code observed}. */
    private Map<Integer, List<KeyRange>> observedBy(KeyRange observed) {
        Map<Integer, List<KeyRange>> byPartition = new TreeMap<>();
        for (Cursor cursor : cursors) {
            KeyRange part = cursor.asked ? KeyRanges.intersection(cursor.slice, observed) : null;
            if (part != null) {
                byPartition
                        .computeIfAbsent(cursor.partition, p -> new ArrayList<>())
                        .add(part);
            }
        }
        return byPartition;
    }

    /** Stored entries in the scan's order, fetched as needed. */
    private interface Stream {
        /** The next entry, or null when there is none; may wait for a page. */
        @Nullable
        StoreEntry peek();

        /** Moves past the entry {@link #peek} returned. */
        void pop();
    }

    /** One partition's slice of the range, read page by page. */
    private final class Cursor implements Stream {
        final int partition;
        final KeyRange slice;
        /** What is left to ask for; null once the partition said it has nothing more. */
        @Nullable
        KeyRange left;

        final ArrayDeque<StoreEntry> buffer = new ArrayDeque<>();

        @Nullable
        CompletableFuture<ScanReply> pending;
        /** Whether the partition was asked at all: only then did the scan observe anything there. */
        boolean asked;

        Cursor(int partition, KeyRange slice) {
            this.partition = partition;
            this.slice = slice;
            this.left = slice;
        }

        /** Sends the next page's request unless one is out or nothing is left. */
        void request() {
            if (pending == null && buffer.isEmpty() && left != null) {
                asked = true;
                pending = source.page(partition, left, pageLimit());
            }
        }

        @Override
        public @Nullable StoreEntry peek() {
            while (buffer.isEmpty() && left != null) {
                request();
                ScanReply reply = Transaction.join(Objects.requireNonNull(pending, "the page requested"));
                pending = null;
                KeyRange range = left;
                for (StoreEntry entry : reply.entries()) {
                    if (!range.contains(entry.key())
                            || (!buffer.isEmpty() && compare(buffer.peekLast().key(), entry.key()) >= 0)) {
                        throw new ServerErrorException(
                                ErrorCode.INTERNAL,
                                "partition " + partition + " answered a scan of " + range + " with key " + entry.key()
                                        + " out of the range or out of order");
                    }
                    buffer.addLast(entry);
                }
                left = reply.more() ? KeyRanges.after(range, buffer.peekLast().key(), descending) : null;
            }
            return buffer.peekFirst();
        }

        @Override
        public void pop() {
            buffer.pollFirst();
        }
    }

    /** Several partitions' cursors over the same range (the hash partitioner), merged in key order. */
    private final class Merge implements Stream {
        private final List<Stream> cursors;

        Merge(List<Stream> cursors) {
            this.cursors = cursors;
            for (Stream cursor : cursors) {
                ((Cursor) cursor).request(); // every partition is asked at once
            }
        }

        private @Nullable Stream smallest() {
            Stream best = null;
            StoreEntry bestHead = null;
            for (Stream cursor : cursors) {
                StoreEntry head = cursor.peek();
                if (head != null && (bestHead == null || compare(head.key(), bestHead.key()) < 0)) {
                    best = cursor;
                    bestHead = head;
                }
            }
            return best;
        }

        @Override
        public @Nullable StoreEntry peek() {
            Stream best = smallest();
            return best == null ? null : best.peek();
        }

        @Override
        public void pop() {
            Stream best = smallest();
            if (best != null) {
                best.pop();
            }
        }
    }

    /** Streams one after the other. */
    private static final class Concatenation implements Stream {
        private final List<Stream> streams;
        private int current;

        Concatenation(List<Stream> streams) {
            this.streams = streams;
        }

        @Override
        public @Nullable StoreEntry peek() {
            while (current < streams.size()) {
                StoreEntry head = streams.get(current).peek();
                if (head != null) {
                    return head;
                }
                current++;
            }
            return null;
        }

        @Override
        public void pop() {
            if (peek() != null) {
                streams.get(current).pop();
            }
        }
    }
}
