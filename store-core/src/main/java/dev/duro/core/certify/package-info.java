/**
 * Certification in log order: does a transaction's read set and scanned ranges (and, for a global one, its write
 * set, the stronger test) meet what was certified after its snapshot (docs/ranges.md)? {@link dev.duro.core.certify.Certifier} answers
 * against the last K certified transactions, from an exact per-key index or, for large read sets, from
 * Bloom-filter summaries that may only add aborts; a snapshot older than the window aborts as too old.
 *
 * <p>It records what the engine certifies and returns conflicts; the engine decides (docs/architecture.md §3).
 * It must not depend on {@code engine} or {@code wire}, and its answers depend only on the delivered sequence
 * and its settings.
 */
package dev.duro.core.certify;
