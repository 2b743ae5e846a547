package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import java.util.Objects;

/**
 * Scans a range of keys of one partition at one snapshot, at any replica of it: the present keys of {@code range}
 * in ascending or descending order, at most {@code limit} of them (and at most the server's {@code
 * limits.scan-keys-max}: a larger limit is clamped, and the reply says more keys remain).
 *
 * @param partition the partition to scan; with the hash partitioner every partition holds keys of any range
 * @param snapshot as in {@link ReadRequest}: the snapshot to scan at, or {@link ReadRequest#LATEST}
 * @param minVersion as in {@link ReadRequest}: the client's session token for this partition, 0 for none
 * @param range {@code [from, to)}; no {@code to} scans to the end of the key space
 * @param limit at least 1
 * @param descending from the end of the range down, instead of from its start up
 */
public record ScanRequest(
        long requestId, int partition, long snapshot, long minVersion, KeyRange range, int limit, boolean descending)
        implements ClientRequest {
    public ScanRequest {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(snapshot >= ReadRequest.LATEST, "snapshot must be >= 0 or LATEST: %s", snapshot);
        checkArgument(minVersion >= 0, "minVersion must be >= 0: %s", minVersion);
        Objects.requireNonNull(range, "range");
        checkArgument(limit >= 1, "a scan's limit is at least 1: %s", limit);
    }

    public boolean readsLatest() {
        return snapshot == ReadRequest.LATEST;
    }

    @Override
    public MessageType type() {
        return MessageType.SCAN_REQUEST;
    }
}
