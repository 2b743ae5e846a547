package dev.duro.core.wire;

/** A message between servers: vote exchange and snapshot-vector gossip. Not answered, so it has no request id. */
public sealed interface PeerMessage extends Message permits VoteMessage, FrontierMessage {}
