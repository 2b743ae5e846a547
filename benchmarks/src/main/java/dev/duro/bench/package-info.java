/** Duro benchmarks. */
package dev.duro.bench;
