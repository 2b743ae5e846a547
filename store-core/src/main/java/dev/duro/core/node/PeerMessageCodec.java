package dev.duro.core.node;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.engine.CoreCodec;
import dev.duro.core.engine.Vote;
import dev.duro.core.wire.MessageType;
import dev.duro.core.wire.PeerCodec;
import dev.duro.core.wire.PeerMessage;
import dev.duro.core.wire.WireCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * The bodies of the messages nodes exchange: a {@link VoteMessage} is its target partition and its votes, a {@link
 * FrontierMessage} one frontier, both in {@link CoreCodec}'s encodings; an {@link AppendMessage} its id, partition and
 * log entry (as {@link LogEntryCodec} writes it), and an {@link AppendReply} its id, status and detail
 * (docs/wire-protocol.md).
 */
public final class PeerMessageCodec implements PeerCodec {
    private final CoreCodec core;

    private PeerMessageCodec(Limits limits) {
        this.core = new CoreCodec(limits);
    }

    /** The codec of a node's connections: client messages and peer messages. */
    public static WireCodec wireCodec(Limits limits) {
        return new WireCodec(limits, new PeerMessageCodec(limits));
    }

    @Override
    public void write(ByteWriter out, PeerMessage message) {
        if (message instanceof VoteMessage votes) {
            out.writeVarLong(votes.targetPartition());
            out.writeVarLong(votes.votes().size());
            for (Vote vote : votes.votes()) {
                CoreCodec.writeVote(out, vote);
            }
        } else if (message instanceof FrontierMessage frontier) {
            CoreCodec.writeFrontier(out, frontier.frontier());
        } else if (message instanceof AppendMessage append) {
            out.writeVarLong(append.id());
            out.writeVarLong(append.partition());
            out.writeBytes(append.entry());
        } else if (message instanceof AppendReply reply) {
            out.writeVarLong(reply.id());
            out.writeVarLong(reply.status().code());
            out.writeUtf8(reply.detail());
        } else {
            throw new IllegalArgumentException(
                    "no encoding for " + message.getClass().getName());
        }
    }

    @Override
    public PeerMessage read(MessageType type, ByteReader in) {
        return switch (type) {
            case VOTE -> readVotes(in);
            case FRONTIER -> new FrontierMessage(CoreCodec.readFrontier(in));
            case APPEND -> readAppend(in);
            case APPEND_REPLY -> readAppendReply(in);
            default -> throw new IllegalArgumentException(type + " is not a message between nodes");
        };
    }

    private static AppendMessage readAppend(ByteReader in) {
        long id = readAppendId(in);
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "append partition");
        Bytes entry = in.readBytes(Integer.MAX_VALUE, "append entry");
        if (entry.size() == 0) {
            throw new MalformedInputException("an append carries a log entry, not an empty one");
        }
        return new AppendMessage(id, partition, entry);
    }

    private static long readAppendId(ByteReader in) {
        long id = in.readVarLong();
        if (id < 0) {
            throw new MalformedInputException("append id out of range: " + id);
        }
        return id;
    }

    private static AppendReply readAppendReply(ByteReader in) {
        long id = readAppendId(in);
        int code = in.readVarInt(Integer.MAX_VALUE, "append status");
        AppendReply.Status status = AppendReply.Status.fromCode(code);
        if (status == null) {
            throw new MalformedInputException("unknown append status " + code);
        }
        return new AppendReply(id, status, in.readUtf8(AppendReply.DETAIL_MAX_BYTES, "append detail"));
    }

    private VoteMessage readVotes(ByteReader in) {
        int target = in.readVarInt(Limits.PARTITIONS_MAX - 1, "vote target partition");
        int count = in.readLength("vote count");
        if (count == 0) {
            throw new MalformedInputException("a vote message carries at least one vote");
        }
        List<Vote> votes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            votes.add(core.readVote(in));
        }
        return new VoteMessage(target, votes);
    }
}
