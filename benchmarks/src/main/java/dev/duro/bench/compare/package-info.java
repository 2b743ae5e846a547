/**
 * {@code ./duro bench compare}: Duro against classical DUR and etcd over the S-DUR paper's Figure 3 sweep (share
 * of global transactions), repeated and rotated, reported as a Markdown table with spreads, plots and the
 * machine's description under {@code benchmarks/results/}.
 */
package dev.duro.bench.compare;
