/**
 * The node's side of the protocol, on top of the engine: the messages nodes exchange (votes, frontiers) and their
 * codec, the Raft log entry codec, and the translation of a client's commit into per-partition commands. A client
 * never needs this package; it must not depend on threads, sockets or consensus types.
 */
package dev.duro.core.node;
