/**
 * Duro's versioned binary client protocol: the {@link dev.duro.core.wire.Message} types clients and nodes
 * exchange and {@link dev.duro.core.wire.WireCodec} that frames them. The messages nodes send each other carry
 * engine types and live in store-core's {@code dev.duro.core.node}; a node's codec frames them through a {@link
 * dev.duro.core.wire.PeerCodec}. Pure encoding and decoding of byte arrays: transports live in the modules that own
 * sockets. The byte layouts and the decoding-error rule are described in {@code docs/wire-protocol.md}.
 */
package dev.duro.core.wire;
