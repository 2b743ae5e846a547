package dev.duro.core.wire;

/**
 * A message of Duro's wire protocol. Every message is an immutable value; {@link WireCodec} turns it into a frame
 * and back. The three sub-interfaces say who sends it, which is what a server or client dispatches on.
 */
public sealed interface Message permits ClientRequest, ServerReply, PeerMessage {
    MessageType type();
}
