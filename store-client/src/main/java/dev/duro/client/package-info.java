/**
 * The Java client API: {@link dev.duro.client.DuroClient} opens {@link dev.duro.client.Transaction}s (read,
 * buffer writes, commit once, exactly-once or an honest "outcome unknown") and {@link
 * dev.duro.client.ReadOnlyTransaction}s (a consistent cut, never certified, never aborted), and runs bodies with
 * retries ({@code transact}). It keeps a view of the cluster, fails over between nodes and retries what is safe
 * to retry ({@link dev.duro.client.RetryPolicy}).
 *
 * <p>It speaks only the wire protocol of {@code dev.duro.core.wire}; it must not depend on the consensus module
 * or Ratis ({@code ModuleBoundariesTest}), and never re-runs a body whose earlier attempt may have committed.
 */
package dev.duro.client;
