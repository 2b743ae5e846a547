package dev.duro.core.wire;

import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;

/**
 * The bodies of {@link PeerMessage}s, for a {@link WireCodec} that runs in a node. Reading follows {@link
 * WireCodec}'s rules: typed errors for malformed input and broken limits, nothing allocated beyond the frame.
 */
public interface PeerCodec {
    void write(ByteWriter out, PeerMessage message);

    /** The body of a frame whose type {@link MessageType#isPeer() is a peer type}. */
    PeerMessage read(MessageType type, ByteReader in);
}
