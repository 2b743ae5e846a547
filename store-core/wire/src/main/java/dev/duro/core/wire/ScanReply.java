package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;
import dev.duro.core.StoreEntry;
import java.util.List;

/**
 * The answer to a {@link ScanRequest}: the present keys of the range at {@code snapshot}, in the scan's order.
 *
 * @param snapshot the snapshot the scan read at; the client fixes {@code st[partition]} to it
 * @param entries keys with their values and the versions that wrote them, ascending or descending as asked
 * @param more the range holds more present keys after the last entry (in the scan's order) than this reply
 *     carries: the limit, the server's {@code limits.scan-keys-max} or the reply frame's size stopped it. The scan
 *     resumes from the successor of the last key (ascending) or up to the last key (descending)
 */
public record ScanReply(long requestId, int partition, long snapshot, List<StoreEntry> entries, boolean more)
        implements ServerReply {
    public ScanReply {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshot >= 0, "snapshot must be >= 0: %s", snapshot);
        entries = List.copyOf(entries);
        checkArgument(!more || !entries.isEmpty(), "a scan reply that stops early carries at least one entry");
    }

    @Override
    public MessageType type() {
        return MessageType.SCAN_REPLY;
    }
}
