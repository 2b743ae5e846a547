/**
 * The in-memory multiversion store of one partition replica, ordered by key: {@link
 * dev.duro.core.store.MultiVersionStore}, behind {@link dev.duro.core.store.VersionedStore} (the contract a
 * disk-backed store would keep), keeps per key the versions a snapshot may still read and collects the ones no
 * snapshot needs; it answers point reads and range scans at a snapshot, and a read below its oldest retained
 * snapshot with {@link dev.duro.core.SnapshotTooOldException}. {@link dev.duro.core.store.FrozenStore} is a
 * copy-on-write view that lets a snapshot be written (and read) while the replica goes on applying.
 *
 * <p>It stores what the engine installs and knows nothing of transactions, votes or certification.
 */
package dev.duro.core.store;
