package dev.duro.core.wire;

import static com.google.common.base.Preconditions.checkArgument;

import dev.duro.core.Limits;

/**
 * One node asks another for its newest snapshot of a partition, to catch up a replica that fell behind the leader's
 * purged log (docs/replication.md, "Catching up from a snapshot"). The answer is a {@link SnapshotOffer} followed on
 * the same connection by the snapshot's bytes, after which the server closes the connection; or an
 * {@link ErrorReply}. It is sent on a connection of its own.
 *
 * @param indexMin the lowest log index the snapshot may end at: the replica needs the leader's log to go on from it
 */
public record SnapshotFetchRequest(long requestId, int partition, long indexMin) implements ClientRequest {
    public SnapshotFetchRequest {
        checkArgument(partition >= 0 && partition < Limits.PARTITIONS_MAX, "partition out of range: %s", partition);
        checkArgument(indexMin >= 0, "snapshot index minimum must be >= 0: %s", indexMin);
    }

    @Override
    public MessageType type() {
        return MessageType.SNAPSHOT_FETCH_REQUEST;
    }
}
