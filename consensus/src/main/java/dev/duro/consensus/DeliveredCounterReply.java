package dev.duro.consensus;

import java.nio.ByteBuffer;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The answer to a read-only Raft request ({@link PartitionStateMachine#query}, asked by {@link
 * ConsensusNode#linearizableDeliveredCounter}): a replica's {@code PSC} as eight big-endian bytes. Both sides of
 * the format live here.
 */
final class DeliveredCounterReply {
    private DeliveredCounterReply() {}

    static Message of(long counter) {
        byte[] bytes = ByteBuffer.allocate(Long.BYTES).putLong(counter).array();
        return Message.valueOf(ByteString.copyFrom(bytes));
    }

    /** Decodes {@link #of}'s answer. */
    static long counterOf(Message reply) {
        byte[] bytes = reply.getContent().toByteArray();
        if (bytes.length != Long.BYTES) {
            throw new IllegalArgumentException("not a delivered-counter reply: " + bytes.length + " bytes");
        }
        return ByteBuffer.wrap(bytes).getLong();
    }
}
