package dev.duro.core.engine;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.codec.ValueCodec;
import dev.duro.core.snapshot.Frontier;
import java.util.List;

/**
 * Encodings of the engine's own types: the commands of the log (commit and abort requests, decisions, cut
 * advances), votes and frontiers. The value types they are built from are {@link ValueCodec}'s, with its rules for
 * malformed input and limits.
 *
 * <p>Log entries and engine snapshots are decoded with limits too: a replica must read its log with limits at
 * least as large as those the entries were admitted under (raising a limit is safe; lowering one can make an
 * admitted entry unreadable).
 */
public final class CoreCodec extends ValueCodec {
    /** Log format 1's commit request, with this partition's snapshot only; still read. */
    private static final int COMMAND_COMMIT_V1 = 1;
    /** Log format 1's abort request, without the target's snapshot; still read. */
    private static final int COMMAND_ABORT_V1 = 2;

    private static final int COMMAND_COMMIT = 3;
    private static final int COMMAND_ABORT = 4;
    private static final int COMMAND_DECISION = 5;
    private static final int COMMAND_CUT_ADVANCE = 6;
    /**
     * A commit request that scanned ranges: {@link #COMMAND_COMMIT}'s fields followed by the ranges. A request
     * without ranges is still written as {@link #COMMAND_COMMIT}, byte for byte as before ranges existed, so logs
     * and engine snapshots of point-only transactions read and write as they did.
     */
    private static final int COMMAND_COMMIT_WITH_RANGES = 7;

    public CoreCodec(Limits limits) {
        super(limits);
    }

    // ---- commands ----

    public void writeCommand(ByteWriter out, Command command) {
        if (command instanceof CommitRequest commit) {
            boolean ranges = !commit.scannedRanges().isEmpty();
            out.writeByte(ranges ? COMMAND_COMMIT_WITH_RANGES : COMMAND_COMMIT);
            writeTxId(out, commit.tid());
            writePartitions(out, commit.participants());
            for (long snapshot : commit.snapshots()) {
                out.writeVarLong(snapshot);
            }
            writeReadSet(out, commit.readSet());
            writeWriteSet(out, commit.writeSet());
            if (ranges) {
                writeRanges(out, commit.scannedRanges());
            }
        } else if (command instanceof AbortRequest abort) {
            out.writeByte(COMMAND_ABORT);
            writeTxId(out, abort.tid());
            writePartitions(out, abort.participants());
            out.writeVarLong(abort.requestedBy());
            out.writeVarLong(abort.targetSnapshot());
        } else if (command instanceof CutAdvance advance) {
            out.writeByte(COMMAND_CUT_ADVANCE);
            out.writeVarLong(advance.partition());
            writeNumbers(out, advance.cut());
        } else {
            Decision decision = (Decision) command;
            out.writeByte(COMMAND_DECISION);
            writeOutcome(out, decision.outcome());
            out.writeVarLong(decision.loggedBy());
        }
    }

    public Command readCommand(ByteReader in) {
        int type = in.readByte();
        return switch (type) {
            case COMMAND_COMMIT -> readCommit(in, false, false);
            case COMMAND_COMMIT_V1 -> readCommit(in, true, false);
            case COMMAND_COMMIT_WITH_RANGES -> readCommit(in, false, true);
            case COMMAND_ABORT, COMMAND_ABORT_V1 -> readAbort(in, type == COMMAND_ABORT_V1);
            case COMMAND_DECISION -> readDecision(in);
            case COMMAND_CUT_ADVANCE -> new CutAdvance(
                    in.readVarInt(Limits.PARTITIONS_MAX - 1, "cut advance partition"),
                    readNumbers(in, Limits.PARTITIONS_MAX, "cut advance snapshot"));
            default -> throw new MalformedInputException("unknown command type " + type);
        };
    }

    private CommitRequest readCommit(ByteReader in, boolean formatOne, boolean withRanges) {
        TxId tid = readTxId(in);
        List<Integer> participants = readNonEmptyPartitions(in);
        List<Long> snapshots;
        if (formatOne) {
            snapshots = CommitRequest.sameSnapshot(participants.size(), readNonNegative(in, "snapshot"));
        } else {
            Long[] each = new Long[participants.size()];
            for (int i = 0; i < each.length; i++) {
                each[i] = readNonNegative(in, "snapshot");
            }
            snapshots = List.of(each); // immutable already, as the request keeps it
        }
        List<Bytes> readSet = readReadSet(in, 0);
        List<Write> writeSet = readWriteSet(in, readSet.size());
        List<KeyRange> ranges = withRanges ? readRanges(in, readSet.size() + writeSet.size()) : List.of();
        return new CommitRequest(tid, participants, snapshots, readSet, writeSet, ranges);
    }

    /** Format 1 named no target snapshot: 0 never tombstones an id the target may have forgotten. */
    private static AbortRequest readAbort(ByteReader in, boolean formatOne) {
        TxId tid = readTxId(in);
        List<Integer> participants = readNonEmptyPartitions(in);
        int requestedBy = in.readVarInt(Limits.PARTITIONS_MAX - 1, "abort request partition");
        long targetSnapshot = formatOne ? 0 : readNonNegative(in, "abort request target snapshot");
        return new AbortRequest(tid, participants, requestedBy, targetSnapshot);
    }

    private Decision readDecision(ByteReader in) {
        Outcome outcome = readOutcome(in);
        if (outcome.participants().size() < 2) {
            throw new MalformedInputException("a logged decision is a global transaction's: " + outcome.tid());
        }
        int loggedBy = in.readVarInt(Limits.PARTITIONS_MAX - 1, "decision partition");
        if (!outcome.participants().contains(loggedBy)) {
            throw new MalformedInputException("a decision is logged by one of its participants: " + loggedBy);
        }
        return new Decision(outcome, loggedBy);
    }

    // ---- votes and frontiers ----

    public static void writeVote(ByteWriter out, Vote vote) {
        writeTxId(out, vote.tid());
        out.writeVarLong(vote.partition());
        out.writeVarLong(vote.commitNumber());
        writeReason(out, vote.reason());
        out.writeByte((vote.replyWanted() ? 1 : 0) | (vote.decisionWanted() ? 2 : 0));
    }

    public Vote readVote(ByteReader in) {
        TxId tid = readTxId(in);
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "vote partition");
        long number = readNonNegative(in, "vote commit number");
        AbortReason reason = readReason(in);
        int flags = in.readByte();
        if ((flags & ~3) != 0) {
            throw new MalformedInputException("unknown vote flags " + flags);
        }
        return new Vote(tid, partition, number, reason, (flags & 1) != 0, (flags & 2) != 0);
    }

    public static void writeFrontier(ByteWriter out, Frontier frontier) {
        out.writeVarLong(frontier.partition());
        out.writeVarLong(frontier.snapshotCounter());
        writeNumbers(out, frontier.dependencies());
        writeNumbers(out, frontier.cutFloor());
    }

    public static Frontier readFrontier(ByteReader in) {
        int partition = in.readVarInt(Limits.PARTITIONS_MAX - 1, "frontier partition");
        long counter = readNonNegative(in, "frontier snapshot counter");
        List<Long> dependencies = readNumbers(in, Limits.PARTITIONS_MAX, "frontier dependency");
        List<Long> cutFloor = readNumbers(in, Limits.PARTITIONS_MAX, "frontier cut floor");
        return new Frontier(partition, counter, dependencies, cutFloor);
    }
}
