package dev.duro.core.wire;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.ValueCodec;
import java.util.ArrayList;
import java.util.List;

/** The body of {@link ClusterInfoReply}. */
final class ClusterInfoCodec {
    private final ValueCodec core;

    ClusterInfoCodec(ValueCodec core) {
        this.core = core;
    }

    static void write(ByteWriter out, ClusterInfoReply reply) {
        out.writeVarLong(reply.requestId());
        out.writeUtf8(reply.clusterName());
        out.writeVarLong(reply.partitionCount());
        out.writeByte(reply.partitioner().kind().code());
        // The split-point count follows from the partition count, so it is not written.
        for (Bytes splitPoint : reply.partitioner().splitPoints()) {
            out.writeBytes(splitPoint);
        }
        for (ClusterInfoReply.PartitionInfo partition : reply.partitions()) {
            out.writeVarLong(partition.replicas().size());
            for (HostPort replica : partition.replicas()) {
                out.writeUtf8(replica.host());
                out.writeVarLong(replica.port());
            }
            out.writeVarLong(partition.leader() + 1L); // 0 when no leader is known
        }
        out.writeVarLong(reply.limits().keyBytesMax());
        out.writeVarLong(reply.limits().valueBytesMax());
        out.writeVarLong(reply.limits().transactionKeysMax());
    }

    ClusterInfoReply read(ByteReader in) {
        long requestId = in.readVarLong();
        String name = in.readUtf8(
                ClusterInfoReply.CLUSTER_NAME_MAX_CHARS * ClientMessageCodec.UTF8_BYTES_PER_CHAR_MAX, "cluster name");
        if (name.length() > ClusterInfoReply.CLUSTER_NAME_MAX_CHARS) {
            throw new MalformedInputException(
                    "cluster name longer than " + ClusterInfoReply.CLUSTER_NAME_MAX_CHARS + " characters");
        }
        int count = in.readVarInt(Limits.PARTITIONS_MAX, "partition count");
        if (count == 0) {
            throw new MalformedInputException("a cluster has at least one partition");
        }
        PartitionerSpec partitioner = readPartitioner(in, count);
        List<ClusterInfoReply.PartitionInfo> partitions = new ArrayList<>(Math.min(count, in.remaining()));
        for (int i = 0; i < count; i++) {
            partitions.add(readPartition(in));
        }
        Limits limits = new Limits(
                readLimit(in, Limits.CEILING.keyBytesMax(), "key bytes limit"),
                readLimit(in, Limits.CEILING.valueBytesMax(), "value bytes limit"),
                readLimit(in, Limits.CEILING.transactionKeysMax(), "transaction keys limit"));
        return new ClusterInfoReply(requestId, name, partitioner, partitions, limits);
    }

    private static int readLimit(ByteReader in, int ceiling, String what) {
        int limit = in.readVarInt(ceiling, what);
        if (limit == 0) {
            throw new MalformedInputException(what + " must be positive");
        }
        return limit;
    }

    private PartitionerSpec readPartitioner(ByteReader in, int partitionCount) {
        int code = in.readByte();
        PartitionerSpec.Kind kind = PartitionerSpec.Kind.fromCode(code);
        if (kind == null) {
            throw new MalformedInputException("unknown partitioner kind " + code);
        }
        if (kind == PartitionerSpec.Kind.HASH) {
            return PartitionerSpec.hash();
        }
        List<Bytes> splitPoints = new ArrayList<>(Math.min(partitionCount - 1, in.remaining()));
        for (int i = 1; i < partitionCount; i++) {
            splitPoints.add(core.readKey(in));
        }
        if (!PartitionerSpec.splitPointsValid(splitPoints)) {
            throw new MalformedInputException("split points must be non-empty and strictly ascending");
        }
        return PartitionerSpec.range(splitPoints);
    }

    private static ClusterInfoReply.PartitionInfo readPartition(ByteReader in) {
        int count = in.readVarInt(ClusterInfoReply.PartitionInfo.REPLICAS_MAX, "replica count");
        if (count == 0) {
            throw new MalformedInputException("a partition has at least one replica");
        }
        List<HostPort> replicas = new ArrayList<>(Math.min(count, in.remaining()));
        for (int i = 0; i < count; i++) {
            String host = in.readUtf8(HostPort.HOST_MAX_CHARS, "replica host");
            if (!HostPort.isValidHost(host)) {
                throw new MalformedInputException("replica host is not a host name or address");
            }
            long port = in.readVarLong();
            if (!HostPort.isValidPort(port)) {
                throw new MalformedInputException("replica port out of range: " + Long.toUnsignedString(port));
            }
            replicas.add(new HostPort(host, (int) port));
        }
        int leader = in.readVarInt(count, "leader index") - 1;
        return new ClusterInfoReply.PartitionInfo(replicas, leader);
    }
}
