package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.StoreEntry;
import dev.duro.core.VersionedValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.annotation.Nullable;

/** Every version of every key, never collected: what {@link MultiVersionStore} must answer like. */
final class NaiveVersionHistory {
    private final Map<Bytes, TreeMap<Long, Optional<Bytes>>> history = new HashMap<>();

    /** A later write of a key at the same version replaces the earlier one, as within one transaction. */
    void put(Bytes key, @Nullable Bytes value, long version) {
        history.computeIfAbsent(key, k -> new TreeMap<>()).put(version, Optional.ofNullable(value));
    }

    /** The newest version at or below {@code snapshot}; a deleted or never-written key reads as absent. */
    VersionedValue get(Bytes key, long snapshot) {
        TreeMap<Long, Optional<Bytes>> versions = history.get(key);
        Map.Entry<Long, Optional<Bytes>> newest = versions == null ? null : versions.floorEntry(snapshot);
        if (newest == null || newest.getValue().isEmpty()) {
            return VersionedValue.ABSENT;
        }
        return new VersionedValue(newest.getValue().get(), newest.getKey());
    }

    /** Every key's read at {@code snapshot}, filtered to the range, sorted, cut at the limit. */
    ScanResult scan(KeyRange range, int limit, boolean descending, long snapshot) {
        List<Bytes> keys = new ArrayList<>(history.keySet());
        keys.sort(descending ? java.util.Comparator.reverseOrder() : java.util.Comparator.naturalOrder());
        List<StoreEntry> found = new ArrayList<>();
        for (Bytes key : keys) {
            VersionedValue value = get(key, snapshot);
            if (range.contains(key) && value.isPresent()) {
                if (found.size() == limit) {
                    return new ScanResult(found, true);
                }
                found.add(new StoreEntry(key, value.value(), value.version()));
            }
        }
        return new ScanResult(found, false);
    }

    /**
     * The most versions a store collected up to {@code horizon} may hold: those above it, and the newest at or
     * below it unless it is a deletion. (A store may skip deletions of keys it holds nothing for.)
     */
    long versionsNeededMost(long horizon) {
        return versionsNeeded(horizon, true);
    }

    /** The fewest versions such a store must hold: the values (not deletions) of {@link #versionsNeededMost}. */
    long versionsNeededLeast(long horizon) {
        return versionsNeeded(horizon, false);
    }

    private long versionsNeeded(long horizon, boolean countDeletions) {
        long needed = 0;
        for (TreeMap<Long, Optional<Bytes>> versions : history.values()) {
            for (Optional<Bytes> value : versions.tailMap(horizon, false).values()) {
                if (countDeletions || value.isPresent()) {
                    needed++;
                }
            }
            Map.Entry<Long, Optional<Bytes>> readable = versions.floorEntry(horizon);
            if (readable != null && readable.getValue().isPresent()) {
                needed++;
            }
        }
        return needed;
    }
}
