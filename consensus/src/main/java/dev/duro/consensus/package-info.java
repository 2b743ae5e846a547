/**
 * Apache Ratis as Duro uses it: one Raft group per partition, and on each replica a {@link
 * dev.duro.consensus.PartitionStateMachine} that feeds the committed log to its partition engine and hands
 * the engine's effects to an {@link dev.duro.consensus.EffectHandler}. {@link dev.duro.consensus.ConsensusNode}
 * starts the Ratis server and its groups; {@link dev.duro.consensus.ProposalQueue} and {@link
 * dev.duro.consensus.GroupCommitter} pack many commands into one log entry; snapshots are written beside
 * applying ({@link dev.duro.consensus.SnapshotWriter}) and a replica behind a purged log fetches its leader's
 * through a {@link dev.duro.consensus.SnapshotFetcher} (docs/replication.md).
 *
 * <p>This is the only module that imports Ratis: its public types speak Duro's own (partition numbers, node
 * ids as strings, {@link dev.duro.consensus.GroupStatus}), so the server never sees a Ratis type
 * (docs/architecture.md §1, §10).
 */
package dev.duro.consensus;
