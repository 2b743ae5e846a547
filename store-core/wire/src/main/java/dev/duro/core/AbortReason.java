package dev.duro.core;

import javax.annotation.Nullable;

/**
 * Why a transaction aborted, precise enough for an application to act on: the kind, the partition that
 * decided it and, for conflicts, the key and the commit number of the transaction it conflicted with.
 *
 * @param kind what happened
 * @param partition the partition whose certification (or abort request) caused the abort
 * @param key the conflicting key, for the two conflict kinds
 * @param number for conflicts, the commit number of the conflicting transaction at {@code partition}; for
 *     {@link Kind#SNAPSHOT_TOO_OLD}, the oldest snapshot that partition still certifies
 * @param possibleFalsePositive the conflict was found by a bloom filter and may not be real
 */
public record AbortReason(Kind kind, int partition, @Nullable Bytes key, long number, boolean possibleFalsePositive) {
    public enum Kind {
        /** A key this transaction read was written by a transaction certified after its snapshot. */
        READ_KEY_OVERWRITTEN,
        /**
         * A key this global transaction writes was read by a transaction certified after its snapshot: the
         * stronger test of S-DUR §IV-C, which keeps global transactions serializable in either order.
         */
        WRITTEN_KEY_READ_CONCURRENTLY,
        /** The snapshot is older than the certification window reaches. */
        SNAPSHOT_TOO_OLD,
        /** A participant never received this global transaction and another asked it to abort (§IV-F). */
        ABORT_REQUESTED,
        /** The snapshot is newer than anything the partition has certified: no replica could have served it. */
        INVALID_SNAPSHOT
    }

    public static AbortReason readKeyOverwritten(int partition, Bytes key, long number, boolean maybe) {
        return new AbortReason(Kind.READ_KEY_OVERWRITTEN, partition, key, number, maybe);
    }

    public static AbortReason writtenKeyReadConcurrently(int partition, Bytes key, long number, boolean maybe) {
        return new AbortReason(Kind.WRITTEN_KEY_READ_CONCURRENTLY, partition, key, number, maybe);
    }

    public static AbortReason snapshotTooOld(int partition, long oldestCertifiable) {
        return new AbortReason(Kind.SNAPSHOT_TOO_OLD, partition, null, oldestCertifiable, false);
    }

    public static AbortReason abortRequested(int partition) {
        return new AbortReason(Kind.ABORT_REQUESTED, partition, null, 0, false);
    }

    public static AbortReason invalidSnapshot(int partition, long newestCertified) {
        return new AbortReason(Kind.INVALID_SNAPSHOT, partition, null, newestCertified, false);
    }

    @Override
    public String toString() {
        String maybe = possibleFalsePositive ? " (bloom filter: possibly a false positive)" : "";
        return switch (kind) {
            case READ_KEY_OVERWRITTEN -> "key " + key + " read at partition " + partition
                    + " was overwritten by concurrent transaction #" + number + maybe;
            case WRITTEN_KEY_READ_CONCURRENTLY -> "key " + key + " written at partition " + partition
                    + " was read by concurrent transaction #" + number + maybe;
            case SNAPSHOT_TOO_OLD -> "snapshot too old at partition " + partition + ": oldest certifiable is " + number;
            case ABORT_REQUESTED -> "partition " + partition + " never received the transaction and aborted it";
            case INVALID_SNAPSHOT -> "snapshot above partition " + partition + "'s newest certified number " + number;
        };
    }
}
