package dev.duro.core.wire;

/**
 * A message between nodes: vote exchange and snapshot-vector gossip. Not answered, so it has no request id. The
 * messages themselves carry engine types and live with the engine (store-core's {@code dev.duro.core.node}); a
 * {@link WireCodec} frames them only when it is given a {@link PeerCodec}, which a client never has.
 */
public non-sealed interface PeerMessage extends Message {}
