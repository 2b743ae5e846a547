package dev.duro.core.engine;

import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The sections of an engine snapshot that say where each transaction stands, written and read by
 * {@link EngineStateCodec} after the store, the certification window, the forgotten ids and the vectors, in this
 * order:
 *
 * <ol>
 *   <li>{@code PENDING}: per entry its commit request, number, own vote, the votes known and a delivered decision;
 *   <li>the retained outcomes, in retention order, each with the counter it was delivered at and the participants
 *       whose decisions were logged (an unfinished one must be pending);
 *   <li>the pinned outcomes, likewise;
 *   <li>the votes buffered for transactions not delivered yet.
 * </ol>
 *
 * <p>The order of the retained outcomes is kept, since it decides which are forgotten next. Votes are written sorted
 * by partition, so replicas in the same state write the same bytes.
 */
final class TransactionStateCodec {
    private final CoreCodec codec;

    TransactionStateCodec(CoreCodec codec) {
        this.codec = codec;
    }

    /**
     * The sections as they are now, to be written later from any thread: {@code PENDING}, the pinned outcomes and the
     * buffered votes (each bounded by the transactions in flight) are encoded now; the retained outcomes, a hundred
     * thousand by default, are only {@linkplain RetainedOutcomes#freeze copied}, and encoded by
     * {@link Frozen#writeTo}.
     */
    Frozen freeze(PartitionEngine engine) {
        ByteWriter before = new ByteWriter(1 << 12);
        before.writeInt(engine.pendingCount());
        for (PartitionEngine.Pending entry : engine.pendingQueue()) {
            codec.writeCommand(before, entry.request);
            before.writeVarLong(entry.number);
            CoreCodec.writeVote(before, entry.ownVote);
            writeVotes(before, entry.votes);
            writeNullableOutcome(before, entry.decision);
        }
        OutcomeRetention retention = engine.retention();
        RetainedOutcomes.Image decided = retention.decided().freeze();
        ByteWriter after = new ByteWriter(1 << 12);
        after.writeInt(retention.pinned().size());
        retention.pinned().forEach((tid, pin) -> writeRetained(after, tid, pin.decided(), pin.pscBefore()));
        after.writeInt(engine.bufferedVotes().size());
        for (Map.Entry<TxId, Map<Integer, Vote>> entry : engine.bufferedVotes().entrySet()) {
            CoreCodec.writeTxId(after, entry.getKey());
            writeVotes(after, entry.getValue());
        }
        return new Frozen(before, decided, after);
    }

    /** The sections frozen by {@link #freeze}: encoded before and after the retained outcomes; written once. */
    record Frozen(ByteWriter before, RetainedOutcomes.Image decided, ByteWriter after) {
        void writeTo(ByteWriter out) {
            before.moveTo(out);
            out.writeInt(decided.size());
            decided.forEach((tid, known, pscBefore) -> writeRetained(out, tid, known, pscBefore));
            after.moveTo(out);
        }
    }

    /** Reads the sections into {@code engine}, whose counters are restored already. */
    void read(ByteReader in, PartitionEngine engine) {
        int pending = in.readCount();
        for (int i = 0; i < pending; i++) {
            if (!(codec.readCommand(in) instanceof CommitRequest request)) {
                throw new MalformedInputException("PENDING holds only commit requests");
            }
            long number = CoreCodec.readNonNegative(in, "pending number");
            Vote own = codec.readVote(in);
            PartitionEngine.Pending entry = new PartitionEngine.Pending(request, number, own, readVotes(in));
            entry.decision = readNullableOutcome(in);
            engine.restorePending(entry);
        }
        OutcomeRetention retention = engine.retention();
        int decided = in.readCount();
        for (int i = 0; i < decided; i++) {
            TxId tid = CoreCodec.readTxId(in);
            long pscBefore = in.readLong();
            retention.decided().put(tid, readDecided(in, engine, tid), pscBefore);
        }
        int pinned = in.readCount();
        for (int i = 0; i < pinned; i++) {
            TxId tid = CoreCodec.readTxId(in);
            long pscBefore = in.readLong();
            retention.pinned().put(tid, new OutcomeRetention.Pinned(readDecided(in, engine, tid), pscBefore));
        }
        int buffered = in.readCount();
        for (int i = 0; i < buffered; i++) {
            TxId tid = CoreCodec.readTxId(in);
            Map<Integer, Vote> votes = readVotes(in);
            if (votes != null) {
                engine.bufferedVotes().put(tid, votes);
            }
        }
    }

    private static void writeRetained(ByteWriter out, TxId tid, Decided known, long pscBefore) {
        CoreCodec.writeTxId(out, tid);
        out.writeLong(pscBefore);
        out.writeVarLong(known.number());
        out.writeVarLong(known.participantCount());
        CoreCodec.writePartitions(out, known.decisionsLogged());
        writeNullableOutcome(out, known.outcome());
        out.writeBoolean(known.ownVote() != null);
        if (known.ownVote() != null) {
            CoreCodec.writeVote(out, known.ownVote());
        }
    }

    private Decided readDecided(ByteReader in, PartitionEngine engine, TxId tid) {
        long number = CoreCodec.readNonNegative(in, "retained number");
        int participantCount = in.readVarInt(Limits.PARTITIONS_MAX, "retained participant count");
        List<Integer> decisionsLogged = CoreCodec.readPartitions(in, "logged decision");
        Outcome outcome = readNullableOutcome(in);
        Vote own = in.readBoolean() ? codec.readVote(in) : null;
        if (outcome == null && !engine.isPending(tid)) {
            throw new MalformedInputException("unfinished outcome for " + tid + ", which is not pending");
        }
        if (outcome != null && !outcome.tid().equals(tid)) {
            throw new MalformedInputException("retained outcome of " + outcome.tid() + " filed under " + tid);
        }
        if (participantCount < 1 || decisionsLogged.size() > participantCount) {
            throw new MalformedInputException("retained " + tid + ": " + decisionsLogged + " of " + participantCount);
        }
        return new Decided(outcome, own, number, participantCount, decisionsLogged);
    }

    private static void writeNullableOutcome(ByteWriter out, @Nullable Outcome outcome) {
        out.writeBoolean(outcome != null);
        if (outcome != null) {
            CoreCodec.writeOutcome(out, outcome);
        }
    }

    private @Nullable Outcome readNullableOutcome(ByteReader in) {
        return in.readBoolean() ? codec.readOutcome(in) : null;
    }

    private static void writeVotes(ByteWriter out, @Nullable Map<Integer, Vote> votes) {
        out.writeBoolean(votes != null);
        if (votes == null) {
            return;
        }
        List<Integer> partitions = votes.keySet().stream().sorted().toList();
        out.writeInt(partitions.size());
        for (int partition : partitions) {
            CoreCodec.writeVote(out, Objects.requireNonNull(votes.get(partition)));
        }
    }

    private @Nullable Map<Integer, Vote> readVotes(ByteReader in) {
        if (!in.readBoolean()) {
            return null;
        }
        int count = in.readCount();
        Map<Integer, Vote> votes = new HashMap<>();
        for (int i = 0; i < count; i++) {
            Vote vote = codec.readVote(in);
            votes.put(vote.partition(), vote);
        }
        return votes;
    }
}
