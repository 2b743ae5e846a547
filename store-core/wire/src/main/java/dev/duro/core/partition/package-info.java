/**
 * Which partition stores a key: {@link dev.duro.core.partition.HashPartitioner} for even spread,
 * {@link dev.duro.core.partition.RangePartitioner} for contiguous key ranges.
 */
package dev.duro.core.partition;
