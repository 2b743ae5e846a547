package dev.duro.core.wire;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.StoreEntry;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.ValueCodec;
import java.util.ArrayList;
import java.util.List;

/** Bodies of the client requests and of their replies except {@link ClusterInfoReply}. */
final class ClientMessageCodec {
    /** UTF-8 takes at most three bytes per Java char (a surrogate pair takes four for two chars). */
    static final int UTF8_BYTES_PER_CHAR_MAX = 3;

    private final ValueCodec core;

    ClientMessageCodec(ValueCodec core) {
        this.core = core;
    }

    static void writeReadRequest(ByteWriter out, ReadRequest request) {
        out.writeVarLong(request.requestId());
        out.writeBytes(request.key());
        // A presence flag rather than an offset encoding keeps "latest" obvious in a hex dump.
        out.writeBoolean(!request.readsLatest());
        if (!request.readsLatest()) {
            out.writeVarLong(request.snapshot());
        }
        out.writeVarLong(request.minVersion());
    }

    ReadRequest readReadRequest(ByteReader in) {
        long requestId = in.readVarLong();
        Bytes key = core.readKey(in);
        long snapshot = in.readBoolean() ? ValueCodec.readNonNegative(in, "snapshot") : ReadRequest.LATEST;
        return new ReadRequest(requestId, key, snapshot, ValueCodec.readNonNegative(in, "minimum version"));
    }

    static void writeMultiReadRequest(ByteWriter out, MultiReadRequest request) {
        out.writeVarLong(request.requestId());
        out.writeVarLong(request.partition());
        out.writeBoolean(!request.readsLatest());
        if (!request.readsLatest()) {
            out.writeVarLong(request.snapshot());
        }
        out.writeVarLong(request.minVersion());
        ValueCodec.writeReadSet(out, request.keys());
    }

    MultiReadRequest readMultiReadRequest(ByteReader in) {
        long requestId = in.readVarLong();
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition");
        long snapshot = in.readBoolean() ? ValueCodec.readNonNegative(in, "snapshot") : ReadRequest.LATEST;
        long minVersion = ValueCodec.readNonNegative(in, "minimum version");
        List<Bytes> keys = core.readReadSet(in, 0); // at most limits.transaction-keys-max, like a transaction
        if (keys.isEmpty()) {
            throw new MalformedInputException("a multi-key read names at least one key");
        }
        return new MultiReadRequest(requestId, partition, snapshot, minVersion, keys);
    }

    static void writeMultiReadReply(ByteWriter out, MultiReadReply reply) {
        out.writeVarLong(reply.requestId());
        out.writeVarLong(reply.partition());
        out.writeVarLong(reply.snapshot());
        out.writeVarLong(reply.values().size());
        for (VersionedValue value : reply.values()) {
            out.writeNullableBytes(value.value());
            out.writeVarLong(value.version());
        }
    }

    MultiReadReply readMultiReadReply(ByteReader in) {
        long requestId = in.readVarLong();
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition");
        long snapshot = ValueCodec.readNonNegative(in, "snapshot");
        int count = in.readLength("value count"); // every value takes at least its presence byte
        if (count == 0) {
            throw new MalformedInputException("a multi-key read answers at least one value");
        }
        List<VersionedValue> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Bytes value = core.readNullableValue(in);
            values.add(new VersionedValue(value, ValueCodec.readNonNegative(in, "version")));
        }
        return new MultiReadReply(requestId, partition, snapshot, values);
    }

    /**
     * Added to a commit's participant count when its participants carry scanned ranges, each after its write set. A
     * commit without ranges is written as before ranges existed, byte for byte; a server that predates ranges reads
     * the flagged count as out of range and refuses the frame rather than certify it without its ranges.
     */
    static final int RANGES_FLAG = 1 << 13;

    static void writeCommitTransaction(ByteWriter out, CommitTransaction commit) {
        out.writeVarLong(commit.requestId());
        ValueCodec.writeTxId(out, commit.tid());
        boolean ranges = commit.hasScannedRanges();
        out.writeVarLong(commit.participants().size() + (ranges ? RANGES_FLAG : 0));
        for (CommitTransaction.Participant participant : commit.participants()) {
            out.writeVarLong(participant.partition());
            out.writeVarLong(participant.snapshot());
            ValueCodec.writeReadSet(out, participant.readSet());
            ValueCodec.writeWriteSet(out, participant.writeSet());
            if (ranges) {
                ValueCodec.writeRanges(out, participant.scannedRanges());
            }
        }
    }

    CommitTransaction readCommitTransaction(ByteReader in) {
        long requestId = in.readVarLong();
        TxId tid = ValueCodec.readTxId(in);
        int flaggedCount = in.readVarInt(RANGES_FLAG + Limits.PARTITIONS_MAX, "participant count");
        boolean withRanges = flaggedCount >= RANGES_FLAG;
        int count = withRanges ? flaggedCount - RANGES_FLAG : flaggedCount;
        if (count > Limits.PARTITIONS_MAX) {
            throw new MalformedInputException("participant count " + flaggedCount + " is out of range");
        }
        if (count == 0) {
            throw new MalformedInputException("a transaction needs at least one participant");
        }
        List<CommitTransaction.Participant> participants = new ArrayList<>(Math.min(count, in.remaining()));
        int keys = 0; // the key limit applies to the whole transaction, across its participants
        int previous = -1;
        boolean anyRange = false;
        for (int i = 0; i < count; i++) {
            int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "participant partition");
            if (partition <= previous) {
                throw new MalformedInputException("participants must ascend without duplicates");
            }
            previous = partition;
            long snapshot = ValueCodec.readNonNegative(in, "snapshot");
            List<Bytes> readSet = core.readReadSet(in, keys);
            keys += readSet.size();
            List<Write> writeSet = core.readWriteSet(in, keys);
            keys += writeSet.size();
            List<KeyRange> ranges = withRanges ? core.readRanges(in, keys) : List.of();
            keys += ranges.size();
            anyRange |= !ranges.isEmpty();
            participants.add(new CommitTransaction.Participant(partition, snapshot, readSet, writeSet, ranges));
        }
        if (withRanges && !anyRange) {
            throw new MalformedInputException("a commit flagged with scanned ranges names at least one");
        }
        return new CommitTransaction(requestId, tid, participants);
    }

    static void writeScanRequest(ByteWriter out, ScanRequest request) {
        out.writeVarLong(request.requestId());
        out.writeVarLong(request.partition());
        out.writeBoolean(!request.readsLatest());
        if (!request.readsLatest()) {
            out.writeVarLong(request.snapshot());
        }
        out.writeVarLong(request.minVersion());
        ValueCodec.writeRange(out, request.range());
        out.writeVarLong(request.limit());
        out.writeBoolean(request.descending());
    }

    ScanRequest readScanRequest(ByteReader in) {
        long requestId = in.readVarLong();
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition");
        long snapshot = in.readBoolean() ? ValueCodec.readNonNegative(in, "snapshot") : ReadRequest.LATEST;
        long minVersion = ValueCodec.readNonNegative(in, "minimum version");
        KeyRange range = core.readRange(in, "scan range");
        int limit = in.readVarInt(Integer.MAX_VALUE, "scan limit");
        if (limit == 0) {
            throw new MalformedInputException("a scan's limit is at least 1");
        }
        return new ScanRequest(requestId, partition, snapshot, minVersion, range, limit, in.readBoolean());
    }

    static void writeScanReply(ByteWriter out, ScanReply reply) {
        out.writeVarLong(reply.requestId());
        out.writeVarLong(reply.partition());
        out.writeVarLong(reply.snapshot());
        out.writeVarLong(reply.entries().size());
        for (StoreEntry entry : reply.entries()) {
            out.writeBytes(entry.key());
            out.writeBytes(entry.value());
            out.writeVarLong(entry.version());
        }
        out.writeBoolean(reply.more());
    }

    ScanReply readScanReply(ByteReader in) {
        long requestId = in.readVarLong();
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition");
        long snapshot = ValueCodec.readNonNegative(in, "snapshot");
        int count = in.readLength("scan entry count"); // every entry takes at least three bytes
        List<StoreEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Bytes key = core.readKey(in);
            Bytes value = in.readBytesExactly(in.readLength("value length"), "value"); // bounded by the frame
            core.limits().checkValue(value);
            entries.add(new StoreEntry(key, value, ValueCodec.readNonNegative(in, "version")));
        }
        boolean more = in.readBoolean();
        if (more && entries.isEmpty()) {
            throw new MalformedInputException("a scan reply that stops early carries at least one entry");
        }
        return new ScanReply(requestId, partition, snapshot, entries, more);
    }

    static void writeReadReply(ByteWriter out, ReadReply reply) {
        out.writeVarLong(reply.requestId());
        out.writeVarLong(reply.partition());
        out.writeVarLong(reply.snapshot());
        out.writeNullableBytes(reply.value());
        out.writeVarLong(reply.version());
    }

    ReadReply readReadReply(ByteReader in) {
        long requestId = in.readVarLong();
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "partition");
        long snapshot = ValueCodec.readNonNegative(in, "snapshot");
        Bytes value = core.readNullableValue(in);
        return new ReadReply(requestId, partition, snapshot, value, ValueCodec.readNonNegative(in, "version"));
    }

    static void writeOutcomeReply(ByteWriter out, OutcomeReply reply) {
        out.writeVarLong(reply.requestId());
        ValueCodec.writeOutcome(out, reply.outcome());
    }

    OutcomeReply readOutcomeReply(ByteReader in) {
        long requestId = in.readVarLong();
        return new OutcomeReply(requestId, core.readOutcome(in));
    }

    static void writeErrorReply(ByteWriter out, ErrorReply reply) {
        out.writeVarLong(reply.requestId());
        out.writeVarLong(reply.code().code());
        out.writeUtf8(reply.message());
    }

    /**
     * An error code this build does not know comes from a newer server; it is read as {@link ErrorCode#INTERNAL}
     * with the code in the message, so the request still fails promptly with a readable reason.
     */
    static ErrorReply readErrorReply(ByteReader in) {
        long requestId = in.readVarLong();
        long wireCode = in.readVarLong();
        String message = in.readUtf8(ErrorReply.MESSAGE_MAX_CHARS * UTF8_BYTES_PER_CHAR_MAX, "error message");
        ErrorCode code = ErrorCode.fromCode(wireCode);
        if (code == null) {
            return new ErrorReply(
                    requestId,
                    ErrorCode.INTERNAL,
                    "unknown error code " + Long.toUnsignedString(wireCode) + ": " + message);
        }
        return new ErrorReply(requestId, code, message);
    }
}
