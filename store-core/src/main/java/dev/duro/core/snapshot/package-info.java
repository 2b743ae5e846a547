/**
 * The vector-of-snapshots service's logic: {@link dev.duro.core.snapshot.Frontier}s that partitions publish
 * (their SC with a dependency vector) and the {@link dev.duro.core.snapshot.SnapshotVectorTracker} that turns
 * them into consistent cuts for read-only transactions (docs/architecture.md §6, docs/window-safety.md).
 *
 * <p>A cut must never split a global transaction, whatever frontiers were lost, repeated, reordered or reset;
 * the tracker therefore relies only on what a frontier carries, never on retained history. No I/O or time
 * here: the server feeds frontiers in and asks for cuts.
 */
package dev.duro.core.snapshot;
