/**
 * The partition engine: one replica's S-DUR server (the S-DUR paper's Algorithm 4) as a deterministic object.
 * {@link dev.duro.core.engine.PartitionEngine} takes the partition's log in order ({@link
 * dev.duro.core.engine.Command}s: commit requests, votes, abort requests, decisions, cut advances) and the
 * passing of time, and returns {@link dev.duro.core.engine.Effect}s (replies, votes to send, commands to
 * propose) for its host to carry out. {@link dev.duro.core.engine.CoreCodec} encodes its commands, votes
 * and frontiers for the log and the wire; {@link dev.duro.core.engine.EngineStateCodec} saves and
 * restores its state for snapshots.
 *
 * <p>Every replica that delivers the same log reaches the same state and the same decisions, whatever its
 * timing or what other partitions remember (docs/architecture.md §3, docs/window-safety.md). So the engine
 * must not read a clock (time comes in through {@code tick(now)}), draw random numbers, start threads, do I/O,
 * or see a Ratis or Netty type; the simulation relies on it.
 */
package dev.duro.core.engine;
