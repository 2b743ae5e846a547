/**
 * The vocabulary every module shares: keys and values ({@link dev.duro.core.Bytes}), writes, transaction ids
 * ({@link dev.duro.core.TxId}), abort reasons, the protocol's size limits ({@link dev.duro.core.Limits}) and the
 * typed exceptions that name a limit or a field.
 *
 * <p>The packages below it hold the protocol itself: the multiversion store ({@code store}), the certifier
 * ({@code certify}), the partition engine ({@code engine}), the snapshot-vector tracker ({@code snapshot}),
 * partitioners and the wire formats. Everything in {@code store-core} is deterministic: no threads, sockets,
 * clocks, randomness or Ratis types ({@code ModuleBoundariesTest} enforces it; docs/architecture.md §1). This
 * package depends on none of its sub-packages.
 */
package dev.duro.core;
