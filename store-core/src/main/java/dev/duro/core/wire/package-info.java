/**
 * Duro's versioned binary wire protocol: the {@link dev.duro.core.wire.Message} types clients and servers
 * exchange, {@link dev.duro.core.wire.WireCodec} that frames them, and {@link dev.duro.core.wire.LogEntryCodec}
 * for the batches of commands in a partition's Raft log. Pure encoding and decoding of byte arrays: transports
 * live in the modules that own sockets. The byte layouts and the decoding-error rule are described in {@code
 * docs/wire-protocol.md}.
 */
package dev.duro.core.wire;
