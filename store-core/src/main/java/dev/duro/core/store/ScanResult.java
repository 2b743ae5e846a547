package dev.duro.core.store;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.StoreEntry;
import java.util.List;

/**
 * What a scan at a snapshot returned: the present keys of a range in the scan's order, at most its limit.
 *
 * @param entries the keys found, ascending or descending as asked
 * @param limited the range holds more present keys at the snapshot than the limit let the scan return
 */
public record ScanResult(List<StoreEntry> entries, boolean limited) {
    public ScanResult {
        entries = List.copyOf(entries);
    }

    /**
     * The part of {@code asked} this scan observed, which is what a transaction must certify as read: all of it,
     * or, when the limit cut the scan short, the keys up to and including the last one returned (from the start
     * ascending, from the end descending). Keys the scan never reached were not read.
     */
    public KeyRange observed(KeyRange asked, boolean descending) {
        if (!limited || entries.isEmpty()) {
            return asked;
        }
        Bytes last = entries.get(entries.size() - 1).key();
        return descending ? new KeyRange(last, asked.to()) : new KeyRange(asked.from(), KeyRange.successor(last));
    }
}
