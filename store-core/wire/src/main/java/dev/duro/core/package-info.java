/**
 * The vocabulary every module shares: keys and values ({@link dev.duro.core.Bytes}), writes, transaction ids
 * ({@link dev.duro.core.TxId}), outcomes, versioned values, abort reasons, the protocol's size limits ({@link
 * dev.duro.core.Limits}) and the typed exceptions that name a limit or a field.
 *
 * <p>This package and the byte codec ({@code codec}), the partitioners ({@code partition}) and the client protocol
 * ({@code wire}) make up the {@code store-wire} module: what a client and a node share, and all a client depends on.
 * The protocol itself is in {@code store-core}: the multiversion store ({@code store}), the certifier ({@code
 * certify}), the partition engine ({@code engine}), the snapshot-vector tracker ({@code snapshot}) and the node's
 * side of the protocol ({@code node}). Both modules are deterministic: no threads, sockets, clocks, randomness or
 * Ratis types ({@code ModuleBoundariesTest} enforces it; docs/architecture.md §1). This package depends on none of
 * its sub-packages.
 */
package dev.duro.core;
