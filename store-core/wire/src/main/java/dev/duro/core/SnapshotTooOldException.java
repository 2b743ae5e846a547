package dev.duro.core;

/** A read asked for a snapshot whose versions have been garbage-collected; retry the transaction. */
public final class SnapshotTooOldException extends DuroException {
    private static final long serialVersionUID = 1L;

    private final long snapshot;
    private final long oldestReadable;

    public SnapshotTooOldException(long snapshot, long oldestReadable) {
        super("snapshot " + snapshot + " is too old: the oldest readable snapshot is " + oldestReadable);
        this.snapshot = snapshot;
        this.oldestReadable = oldestReadable;
    }

    /** As reported by a server: the snapshots are in the message, the fields are -1. */
    public SnapshotTooOldException(String message) {
        super(message);
        this.snapshot = -1;
        this.oldestReadable = -1;
    }

    public long snapshot() {
        return snapshot;
    }

    public long oldestReadable() {
        return oldestReadable;
    }
}
