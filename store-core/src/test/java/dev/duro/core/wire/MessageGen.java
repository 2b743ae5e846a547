package dev.duro.core.wire;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.StoreEntry;
import dev.duro.core.VersionedValue;
import dev.duro.core.codec.Gen;
import dev.duro.core.engine.Command;
import dev.duro.core.engine.Vote;
import dev.duro.core.node.AppendMessage;
import dev.duro.core.node.AppendReply;
import dev.duro.core.node.FrontierMessage;
import dev.duro.core.node.LogEntryCodec;
import dev.duro.core.node.VoteMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Seeded random messages of every type, valid under the given limits, with edge cases mixed in. */
final class MessageGen {
    private final Gen gen;
    private final LogEntryCodec entries;

    MessageGen(long seed, Limits limits) {
        this.gen = new Gen(seed, limits);
        this.entries = new LogEntryCodec(limits);
    }

    Gen gen() {
        return gen;
    }

    Message any() {
        return of(gen.oneOf(MessageType.values()));
    }

    Message of(MessageType type) {
        return switch (type) {
            case READ_REQUEST -> readRequest();
            case MULTI_READ_REQUEST -> new MultiReadRequest(
                    gen.anyLong(),
                    gen.partition(),
                    gen.chance(0.4) ? ReadRequest.LATEST : gen.nonNegative(),
                    gen.nonNegative(),
                    keys(1 + gen.size(20)));
            case MULTI_READ_REPLY -> multiReadReply();
            case COMMIT_TRANSACTION -> commitTransaction();
            case SCAN_REQUEST -> new ScanRequest(
                    gen.anyLong(),
                    gen.partition(),
                    gen.chance(0.4) ? ReadRequest.LATEST : gen.nonNegative(),
                    gen.nonNegative(),
                    range(),
                    gen.chance(0.1) ? Integer.MAX_VALUE : 1 + gen.size(10_000),
                    gen.chance(0.5));
            case SCAN_REPLY -> scanReply();
            case CLUSTER_INFO_REQUEST -> new ClusterInfoRequest(gen.anyLong());
            case SNAPSHOT_VECTOR_REQUEST -> new SnapshotVectorRequest(
                    gen.anyLong(),
                    gen.chance(0.5),
                    gen.chance(0.5) ? List.of() : snapshotVectorReply().cut());
            case SNAPSHOT_VECTOR_REPLY -> snapshotVectorReply();
            case REPLICA_STATUS_REQUEST -> new ReplicaStatusRequest(gen.anyLong(), gen.partition());
            case REPLICA_STATUS_REPLY -> new ReplicaStatusReply(
                    gen.anyLong(),
                    gen.partition(),
                    gen.nonNegative(),
                    gen.anyLong(),
                    gen.chance(0.1) ? Integer.MAX_VALUE : gen.size(1000),
                    "n" + gen.size(1000),
                    gen.chance(0.2) ? "" : "n" + gen.size(1000),
                    gen.nonNegative(),
                    gen.nonNegative() - 1,
                    gen.nonNegative() - 1);
            case SNAPSHOT_FETCH_REQUEST -> new SnapshotFetchRequest(gen.anyLong(), gen.partition(), gen.nonNegative());
            case SNAPSHOT_OFFER -> new SnapshotOffer(
                    gen.anyLong(),
                    gen.partition(),
                    gen.nonNegative(),
                    gen.nonNegative(),
                    gen.nonNegative(),
                    gen.bytes(SnapshotOffer.MD5_BYTES));
            case AUTHENTICATE_REQUEST -> new AuthenticateRequest(
                    gen.anyLong(), gen.text(40), gen.bytes(gen.size(AuthenticateRequest.PASSWORD_MAX_BYTES)));
            case ADMIN_REQUEST -> adminRequest();
            case ADMIN_REPLY -> new AdminReply(
                    gen.anyLong(), gen.text(2000), gen.chance(0.5) ? null : gen.bytes(gen.size(5000)));
            case READ_REPLY -> readReply();
            case OUTCOME_REPLY -> new OutcomeReply(gen.anyLong(), gen.outcome());
            case CLUSTER_INFO_REPLY -> clusterInfoReply();
            case ERROR_REPLY -> errorReply();
            case VOTE -> voteMessage();
            case FRONTIER -> new FrontierMessage(gen.frontier());
            case APPEND -> appendMessage();
            case APPEND_REPLY -> new AppendReply(
                    gen.nonNegative(),
                    AppendReply.Status.values()[gen.size(AppendReply.Status.values().length - 1)],
                    gen.chance(0.3) ? "" : gen.text(300));
        };
    }

    ReadRequest readRequest() {
        long snapshot = gen.chance(0.4) ? ReadRequest.LATEST : gen.nonNegative();
        return new ReadRequest(gen.anyLong(), gen.key(), snapshot, gen.nonNegative());
    }

    private List<Bytes> keys(int count) {
        List<Bytes> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            keys.add(gen.key());
        }
        return keys;
    }

    MultiReadReply multiReadReply() {
        List<VersionedValue> values = new ArrayList<>();
        for (int i = 1 + gen.size(20); i > 0; i--) {
            values.add(gen.chance(0.2) ? VersionedValue.ABSENT : new VersionedValue(gen.value(), gen.nonNegative()));
        }
        return new MultiReadReply(gen.anyLong(), gen.partition(), gen.nonNegative(), values);
    }

    /** A range {@code [from, to)} of random keys, open-ended now and then. */
    KeyRange range() {
        while (true) {
            Bytes from = gen.key();
            if (gen.chance(0.2)) {
                return new KeyRange(from, null);
            }
            Bytes to = gen.key();
            if (from.compareTo(to) < 0) {
                return new KeyRange(from, to);
            }
            if (to.compareTo(from) < 0) {
                return new KeyRange(to, from);
            }
        }
    }

    ScanReply scanReply() {
        List<StoreEntry> entries = new ArrayList<>();
        for (int i = gen.size(20); i > 0; i--) {
            entries.add(new StoreEntry(gen.key(), gen.value(), gen.nonNegative()));
        }
        return new ScanReply(
                gen.anyLong(), gen.partition(), gen.nonNegative(), entries, !entries.isEmpty() && gen.chance(0.5));
    }

    ReadReply readReply() {
        Bytes value = gen.chance(0.2) ? null : gen.value();
        return new ReadReply(gen.anyLong(), gen.partition(), gen.nonNegative(), value, gen.nonNegative());
    }

    CommitTransaction commitTransaction() {
        double roll = gen.random().nextDouble();
        int count = roll < 0.5
                ? 1
                : roll < 0.95 ? 2 + gen.random().nextInt(4) : 50 + gen.random().nextInt(300);
        List<Integer> partitions = gen.partitions(count, count);
        int keysLeft = gen.limits().transactionKeysMax();
        boolean scans = gen.chance(0.3);
        List<CommitTransaction.Participant> participants = new ArrayList<>();
        for (int partition : partitions) {
            List<Bytes> readSet = gen.readSet(Math.min(keysLeft, count > 10 ? 2 : 20));
            keysLeft -= readSet.size();
            var writeSet = gen.writeSet(Math.min(keysLeft, count > 10 ? 2 : 20));
            keysLeft -= writeSet.size();
            List<KeyRange> ranges = new ArrayList<>();
            for (int i = scans ? gen.size(Math.min(keysLeft, 3)) : 0; i > 0; i--) {
                ranges.add(range());
            }
            keysLeft -= ranges.size();
            participants.add(
                    new CommitTransaction.Participant(partition, gen.nonNegative(), readSet, writeSet, ranges));
        }
        return new CommitTransaction(gen.anyLong(), gen.txId(), participants);
    }

    ClusterInfoReply clusterInfoReply() {
        int partitions =
                gen.chance(0.005) ? Limits.PARTITIONS_MAX : 1 + gen.random().nextInt(gen.chance(0.8) ? 8 : 100);
        PartitionerSpec partitioner = gen.random().nextBoolean() ? PartitionerSpec.hash() : range(partitions);
        List<ClusterInfoReply.PartitionInfo> infos = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            infos.add(partitionInfo());
        }
        return new ClusterInfoReply(
                gen.anyLong(),
                gen.text(ClusterInfoReply.CLUSTER_NAME_MAX_CHARS),
                partitioner,
                infos,
                new Limits(
                        1 + gen.random().nextInt(Limits.CEILING.keyBytesMax()),
                        1 + gen.random().nextInt(Limits.CEILING.valueBytesMax()),
                        1 + gen.random().nextInt(Limits.CEILING.transactionKeysMax())));
    }

    private PartitionerSpec range(int partitions) {
        TreeSet<Bytes> splitPoints = new TreeSet<>();
        while (splitPoints.size() < partitions - 1) {
            Bytes key = gen.key();
            if (key.size() > 0) {
                splitPoints.add(key);
            }
        }
        return PartitionerSpec.range(List.copyOf(splitPoints));
    }

    private ClusterInfoReply.PartitionInfo partitionInfo() {
        int count = gen.chance(0.02)
                ? ClusterInfoReply.PartitionInfo.REPLICAS_MAX
                : 1 + gen.random().nextInt(5);
        List<HostPort> replicas = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            replicas.add(hostPort());
        }
        int leader = gen.chance(0.2)
                ? ClusterInfoReply.PartitionInfo.NO_LEADER
                : gen.random().nextInt(count);
        return new ClusterInfoReply.PartitionInfo(replicas, leader);
    }

    HostPort hostPort() {
        String[] hosts = {"localhost", "10.0.0.7", "::1", "duro-3.example", "a", "x".repeat(HostPort.HOST_MAX_CHARS)};
        int port = gen.chance(0.2)
                ? (gen.random().nextBoolean() ? 1 : 65_535)
                : 1024 + gen.random().nextInt(60_000);
        return new HostPort(hosts[gen.random().nextInt(hosts.length)], port);
    }

    AdminRequest adminRequest() {
        List<String> arguments = new ArrayList<>();
        for (int i = gen.size(AdminRequest.ARGUMENTS_MAX); i > 0; i--) {
            arguments.add(gen.text(100));
        }
        return new AdminRequest(
                gen.anyLong(), gen.text(20), arguments, gen.chance(0.5) ? null : gen.bytes(gen.size(64)));
    }

    ErrorReply errorReply() {
        ErrorCode code = gen.oneOf(ErrorCode.values());
        return new ErrorReply(gen.anyLong(), code, gen.text(ErrorReply.MESSAGE_MAX_CHARS));
    }

    AppendMessage appendMessage() {
        Command first = gen.command();
        int partition = first.participants().get(gen.size(first.participants().size() - 1));
        List<Command> commands = new ArrayList<>(List.of(first));
        for (int i = gen.size(5); i > 0; i--) {
            Command next = gen.command();
            if (next.participants().contains(partition)) {
                commands.add(next);
            }
        }
        return new AppendMessage(gen.nonNegative(), partition, Bytes.wrap(entries.encode(commands)));
    }

    VoteMessage voteMessage() {
        List<Vote> votes = new ArrayList<>();
        for (int i = 1 + gen.size(50); i > 0; i--) {
            votes.add(gen.vote());
        }
        return new VoteMessage(gen.size(Limits.PARTITIONS_MAX - 1), votes);
    }

    SnapshotVectorReply snapshotVectorReply() {
        List<Long> cut = new ArrayList<>();
        for (int i = 1 + gen.size(64); i > 0; i--) {
            cut.add(gen.nonNegative());
        }
        return new SnapshotVectorReply(gen.anyLong(), cut);
    }
}
