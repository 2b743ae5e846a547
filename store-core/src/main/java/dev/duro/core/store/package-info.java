/**
 * The in-memory multiversion store of one partition replica: {@link dev.duro.core.store.MultiVersionStore}
 * keeps, per key, the versions a snapshot may still read, collects the ones no snapshot needs, and answers a
 * read below its oldest retained snapshot with {@link dev.duro.core.store.SnapshotTooOldException}. {@link
 * dev.duro.core.store.FrozenStore} is a copy-on-write view that lets a snapshot be written while the replica
 * goes on applying.
 *
 * <p>It stores what the engine installs and knows nothing of transactions, votes or certification.
 */
package dev.duro.core.store;
