package dev.duro.consensus;

import javax.annotation.Nullable;

/**
 * One partition's Raft group as this node's replica sees it, for readiness checks, metrics and status.
 *
 * @param leader the node that leads the group, or null if this replica knows none
 * @param leaderHere whether this node's replica is the leader
 * @param term the replica's current term
 * @param commitIndex the highest log index this replica knows to be committed
 * @param appliedIndex the highest log index this replica has applied (delivered to its engine)
 * @param leaderChanges how often this replica has heard of a new leader since it started
 */
public record GroupStatus(
        int partition,
        @Nullable String leader,
        boolean leaderHere,
        long term,
        long commitIndex,
        long appliedIndex,
        long leaderChanges) {
    /** Whether the replica has a leader and has applied everything it knows to be committed. */
    public boolean caughtUp() {
        return leader != null && appliedIndex >= commitIndex;
    }
}
