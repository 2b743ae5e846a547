package dev.duro.core.certify;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The certification rule of docs/architecture.md §3 written as plainly as possible, to check {@link Certifier} against: it
 * keeps every certified transaction's full readset and writeset forever and scans those numbered in
 * {@code (snapshot, PSC]}.
 *
 * <p>Where a rule allows several answers it picks the one the exact index reports: the first conflicting key
 * in readset-then-writeset order, then the first range (in the request's order) with a conflict, naming its
 * smallest key written after the snapshot, and the newest conflicting transaction's number. A scanned range is a
 * read of every key in it.
 */
final class NaiveCertifier {
    private final int partition;
    private final int windowTransactions;
    /** Transaction {@code n} is at index {@code n - 1}. */
    private final List<Certified> certified = new ArrayList<>();

    private record Certified(Set<Bytes> readOrWritten, Set<Bytes> written, List<KeyRange> ranges) {
        boolean read(Bytes key) {
            return readOrWritten.contains(key) || ranges.stream().anyMatch(range -> range.contains(key));
        }
    }

    NaiveCertifier(int partition, int windowTransactions) {
        this.partition = partition;
        this.windowTransactions = windowTransactions;
    }

    long pendingSnapshotCounter() {
        return certified.size();
    }

    @Nullable
    AbortReason certify(long snapshot, List<Bytes> readSet, List<Write> writeSet, boolean global) {
        return certify(snapshot, readSet, writeSet, List.of(), global);
    }

    @Nullable
    AbortReason certify(
            long snapshot, List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges, boolean global) {
        long counter = pendingSnapshotCounter();
        if (snapshot < counter - windowTransactions) {
            return AbortReason.snapshotTooOld(partition, counter - windowTransactions);
        }
        if (snapshot > counter) {
            return AbortReason.invalidSnapshot(partition, counter);
        }
        List<Bytes> readOrWritten = new ArrayList<>(readSet);
        writeSet.forEach(write -> readOrWritten.add(write.key()));
        for (Bytes key : readOrWritten) {
            long writer = newestAfter(snapshot, key, false);
            if (writer > 0) {
                return AbortReason.readKeyOverwritten(partition, key, writer, false);
            }
        }
        for (KeyRange range : ranges) {
            Bytes smallest = null;
            for (long number = snapshot + 1; number <= counter; number++) {
                for (Bytes key : certified.get((int) number - 1).written()) {
                    if (range.contains(key) && (smallest == null || key.compareTo(smallest) < 0)) {
                        smallest = key;
                    }
                }
            }
            if (smallest != null) {
                return AbortReason.readKeyOverwritten(
                        partition, smallest, newestAfter(snapshot, smallest, false), false);
            }
        }
        if (global) {
            for (Write write : writeSet) {
                long reader = newestAfter(snapshot, write.key(), true);
                if (reader > 0) {
                    return AbortReason.writtenKeyReadConcurrently(partition, write.key(), reader, false);
                }
            }
        }
        return null;
    }

    /** The newest transaction in {@code (snapshot, PSC]} that wrote (or read or wrote) {@code key}, or 0. */
    private long newestAfter(long snapshot, Bytes key, boolean readOrWrite) {
        for (long number = pendingSnapshotCounter(); number > snapshot; number--) {
            Certified transaction = certified.get((int) number - 1);
            if (readOrWrite ? transaction.read(key) : transaction.written().contains(key)) {
                return number;
            }
        }
        return 0;
    }

    long record(List<Bytes> readSet, List<Write> writeSet) {
        return record(readSet, writeSet, List.of());
    }

    long record(List<Bytes> readSet, List<Write> writeSet, List<KeyRange> ranges) {
        Set<Bytes> written = new HashSet<>();
        writeSet.forEach(write -> written.add(write.key()));
        Set<Bytes> readOrWritten = new HashSet<>(readSet);
        readOrWritten.addAll(written);
        certified.add(new Certified(readOrWritten, written, List.copyOf(ranges)));
        return pendingSnapshotCounter();
    }
}
