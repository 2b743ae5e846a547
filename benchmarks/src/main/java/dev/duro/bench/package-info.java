/**
 * {@code ./duro bench}: the entry point ({@link dev.duro.bench.BenchMain}) and the JMH microbenchmarks of the
 * engine's hot path (certification, certify-and-finish, the multiversion store, the codecs). Performance is
 * measured here, never in timed unit tests (docs/performance.md).
 */
package dev.duro.bench;
