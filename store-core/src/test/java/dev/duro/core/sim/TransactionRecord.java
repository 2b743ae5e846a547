package dev.duro.core.sim;

import dev.duro.core.KeyRange;
import dev.duro.core.TxId;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A committed transaction as the serializability checker sees it: which version of each key it read and which
 * version of each key it installed. Versions are commit numbers at the key's partition (0 is the initial,
 * never-written state), so for one key they are totally ordered.
 */
record TransactionRecord(TxId tid, List<Read> reads, List<Write> writes, List<Scan> scans) {
    TransactionRecord {
        reads = List.copyOf(reads);
        writes = List.copyOf(writes);
        scans = List.copyOf(scans);
    }

    TransactionRecord(TxId tid, List<Read> reads, List<Write> writes) {
        this(tid, reads, writes, List.of());
    }

    /**
     * A scan of {@code range} at {@code snapshot} that found the keys of {@code found}: a read of every key in the
     * range, so the checker reads every other key of the range that any committed transaction wrote as absent there.
     */
    record Scan(KeyRange range, long snapshot, List<Read> found) {
        Scan {
            found = List.copyOf(found);
        }
    }

    /**
     * A read of {@code key} that returned {@code version}.
     *
     * @param observedWriter the writer named by the value that was read, or null when the value named none (the
     *     key was absent or deleted); lets the checker confirm that the version really came from that writer
     * @param snapshot the snapshot the read was served at, or {@link #UNKNOWN_SNAPSHOT}. When known, the checker
     *     also applies the multiversion read rule (the newest committed version at or below the snapshot) and
     *     attributes a read of an absent key to the deletion that made it absent: the store keeps no version
     *     for a key deleted while absent, nor for a collected deletion, so the returned version cannot say.
     */
    record Read(String key, long version, @Nullable TxId observedWriter, long snapshot) {
        static final long UNKNOWN_SNAPSHOT = -1;

        Read(String key, long version, @Nullable TxId observedWriter) {
            this(key, version, observedWriter, UNKNOWN_SNAPSHOT);
        }
    }

    /** An installed write of {@code key} at {@code version}; {@code deletes} if it removed the key. */
    record Write(String key, long version, boolean deletes) {
        Write(String key, long version) {
            this(key, version, false);
        }
    }
}
