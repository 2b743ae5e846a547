package dev.duro.core.engine;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.TxId;
import dev.duro.core.certify.Certifier;
import dev.duro.core.certify.FrozenWindow;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.store.FrozenStore;
import dev.duro.core.store.MultiVersionStore;
import dev.duro.core.store.VersionedValue;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * Writes a partition engine's replicated state to bytes and restores it: the state-machine snapshot.
 *
 * <p>Everything that influences a future decision is included: {@code SC}, the store, the certification
 * window, {@code PENDING} with the votes (and logged decision) known for each entry, the retained outcomes with
 * the counter each was delivered at and the participants whose decisions were logged, the pinned ones, what is
 * known of the forgotten ids, and the dependency vector.
 * The retained outcomes keep their order (the order of first delivery, with the places of pending transactions),
 * since it decides which are forgotten next. Votes buffered for undelivered transactions are included too (they
 * only speed things up). Local timing state is not: a restored replica starts its timers afresh, and proposes
 * again the decisions it finished but has not seen logged.
 */
public final class EngineStateCodec {
    private static final int MAGIC = 0x44555245; // "DURE"
    /** Format 3: retention with forgotten-up-to, pinned globals and the dependency vector (docs/window-safety.md). */
    private static final int FORMAT_VERSION = 3;

    private final CoreCodec codec;

    public EngineStateCodec(Limits limits) {
        this.codec = new CoreCodec(limits);
    }

    public byte[] write(PartitionEngine engine) {
        ByteWriter out = new ByteWriter(1 << 16);
        Frozen frozen = freeze(engine);
        try {
            frozen.writeTo(out, Runnable::run);
        } finally {
            frozen.release();
        }
        return out.toByteArray();
    }

    /**
     * Writes the state to {@code sink} as it is encoded, through a buffer of kilobytes, and returns its size. The
     * caller flushes and closes {@code sink}.
     *
     * @throws java.io.UncheckedIOException if {@code sink} fails
     */
    public long write(PartitionEngine engine, OutputStream sink) {
        Frozen frozen = freeze(engine);
        try {
            return frozen.writeTo(sink, Runnable::run);
        } finally {
            frozen.release();
        }
    }

    /**
     * The engine's state as it is now, to be written while the engine goes on delivering: the store is
     * {@linkplain MultiVersionStore#freeze frozen} (a reference per key) and the certification window copied
     * ({@link Certifier#freeze}: a reference per transaction); the rest (retained outcomes, {@code PENDING}: megabytes
     * at most) is encoded at once. What {@link Frozen#writeTo} writes later is byte for byte what
     * {@link #write} would have written now.
     */
    public Frozen freeze(PartitionEngine engine) {
        ByteWriter head = new ByteWriter(32);
        head.writeInt(MAGIC).writeInt(FORMAT_VERSION);
        head.writeInt(engine.partition());
        head.writeLong(engine.snapshotCounter());
        ByteWriter tail = new ByteWriter(1 << 16);
        encodeAfterCertifier(engine, tail);
        return new Frozen(
                engine.snapshotCounter(),
                head,
                engine.store().freeze(),
                engine.certifier().freeze(),
                tail);
    }

    /**
     * A partition engine's state frozen by {@link #freeze}, written later, in pieces, by {@link #writeTo}. Its
     * owner must {@link #release} it (with the engine to itself) whether or not it was written: until then the
     * store collects no garbage.
     */
    public static final class Frozen {
        /** Keys (or queued collections) written per exclusive turn: about a millisecond of encoding. */
        private static final int STORE_ITEMS_PER_TURN = 4096;
        /**
         * Bytes a turn stops at: the turn's buffer holds a copy of what the turn encoded, so with large values an
         * item count alone would copy much of the store into memory (4,096 values of 256 KiB are a gigabyte).
         */
        private static final int STORE_BYTES_PER_TURN = 1 << 20;

        private final long snapshotCounter;
        private final ByteWriter head;
        private final FrozenStore store;
        private final FrozenWindow window;
        private final ByteWriter tail;
        private boolean written;

        private Frozen(long snapshotCounter, ByteWriter head, FrozenStore store, FrozenWindow window, ByteWriter tail) {
            this.snapshotCounter = snapshotCounter;
            this.head = head;
            this.store = store;
            this.window = window;
            this.tail = tail;
        }

        /** {@code SC} of the frozen state. */
        public long snapshotCounter() {
            return snapshotCounter;
        }

        /**
         * Writes the frozen state to {@code sink} and returns its size. The store is read in turns, each run through
         * {@code exclusive}, which must run it with the engine to itself (under the lock that guards the engine);
         * sorting the keys and passing bytes on to {@code sink} happen outside those turns.
         *
         * @throws java.io.UncheckedIOException if {@code sink} fails
         */
        public long writeTo(OutputStream sink, Consumer<Runnable> exclusive) {
            ByteWriter out = ByteWriter.streamingTo(sink);
            writeTo(out, exclusive);
            out.flush();
            return out.size();
        }

        private void writeTo(ByteWriter out, Consumer<Runnable> exclusive) {
            if (written) {
                throw new IllegalStateException("a frozen engine state is written once");
            }
            written = true;
            head.moveTo(out);
            store.sortKeys();
            ByteWriter turn = new ByteWriter(1 << 16);
            boolean[] more = {true};
            while (more[0]) {
                exclusive.accept(() -> more[0] = store.writeNext(turn, STORE_ITEMS_PER_TURN, STORE_BYTES_PER_TURN));
                turn.moveTo(out);
            }
            window.writeTo(out); // immutable: no turn needed
            tail.moveTo(out);
        }

        /** Lets the store collect again; needs the engine to itself. A second call does nothing. */
        public void release() {
            store.release();
        }
    }

    private void encodeAfterCertifier(PartitionEngine engine, ByteWriter out) {
        engine.forgotten().writeTo(out);
        writeVector(out, engine.dependencies());
        writeVector(out, engine.cutFloor());
        out.writeInt(engine.pendingCount());
        for (PartitionEngine.Pending entry : engine.pendingQueue()) {
            codec.writeCommand(out, entry.request);
            out.writeVarLong(entry.number);
            CoreCodec.writeVote(out, entry.ownVote);
            writeVotes(out, entry.votes);
            writeNullableOutcome(out, entry.decision);
        }
        out.writeInt(engine.decided().size());
        engine.decided().forEach((tid, known, pscBefore) -> writeRetained(out, tid, known, pscBefore));
        out.writeInt(engine.pinned().size());
        engine.pinned().forEach((tid, pin) -> writeRetained(out, tid, pin.decided(), pin.pscBefore()));
        out.writeInt(engine.bufferedVotes().size());
        for (Map.Entry<TxId, Map<Integer, Vote>> entry : engine.bufferedVotes().entrySet()) {
            CoreCodec.writeTxId(out, entry.getKey());
            writeVotes(out, entry.getValue());
        }
    }

    /**
     * Restores an engine written by {@link #write}.
     *
     * @throws MalformedInputException if the bytes are not such a state, or belong to another partition
     */
    public PartitionEngine read(byte[] state, int partition, EngineSettings settings) {
        ByteReader in = new ByteReader(state);
        if (in.readInt() != MAGIC) {
            throw new MalformedInputException("not a Duro engine snapshot");
        }
        int version = in.readInt();
        if (version != FORMAT_VERSION) {
            throw new MalformedInputException("unsupported engine snapshot format " + version + " (this build reads "
                    + FORMAT_VERSION + "; format 2 predates window safety and cannot be restored: replay the log or"
                    + " install a snapshot from an upgraded peer)");
        }
        int stored = in.readInt();
        if (stored != partition) {
            throw new MalformedInputException("snapshot of partition " + stored + ", expected " + partition);
        }
        long snapshotCounter = in.readLong();
        MultiVersionStore store = MultiVersionStore.readFrom(in);
        Certifier certifier = Certifier.readFrom(in, partition, settings.certification());
        PartitionEngine engine = new PartitionEngine(partition, settings, store, certifier, snapshotCounter);
        ForgottenIds forgotten = ForgottenIds.readFrom(in, settings.outcomesRetained());
        long[] dependencies = readVector(in, "dependency");
        long[] cutFloor = readVector(in, "cut floor");
        engine.restoreCounters(forgotten, dependencies, cutFloor);
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
        int decided = in.readCount();
        for (int i = 0; i < decided; i++) {
            TxId tid = CoreCodec.readTxId(in);
            long pscBefore = in.readLong();
            engine.decided().put(tid, readDecided(in, engine, tid), pscBefore);
        }
        int pinned = in.readCount();
        for (int i = 0; i < pinned; i++) {
            TxId tid = CoreCodec.readTxId(in);
            long pscBefore = in.readLong();
            engine.pinned().put(tid, new OutcomeRetention.Pinned(readDecided(in, engine, tid), pscBefore));
        }
        int buffered = in.readCount();
        for (int i = 0; i < buffered; i++) {
            TxId tid = CoreCodec.readTxId(in);
            Map<Integer, Vote> votes = readVotes(in);
            if (votes != null) {
                engine.bufferedVotes().put(tid, votes);
            }
        }
        in.expectEnd("engine snapshot");
        engine.restoreUnlogged();
        return engine;
    }

    private static void writeVector(ByteWriter out, long[] vector) {
        out.writeInt(vector.length);
        for (long value : vector) {
            out.writeVarLong(value);
        }
    }

    private static long[] readVector(ByteReader in, String what) {
        int width = in.readCount();
        if (width > Limits.PARTITIONS_MAX) {
            throw new MalformedInputException(what + " vector wider than " + Limits.PARTITIONS_MAX);
        }
        long[] vector = new long[width];
        for (int q = 0; q < width; q++) {
            vector[q] = CoreCodec.readNonNegative(in, what);
        }
        return vector;
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
            CoreCodec.writeVote(out, votes.get(partition));
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

    /**
     * A digest of what readers can observe: {@code SC} and every key's value at {@code SC}. Replicas of a
     * partition that delivered the same log have equal digests.
     */
    public static long contentDigest(PartitionEngine engine) {
        Hasher hasher = Hashing.murmur3_128().newHasher();
        hasher.putLong(engine.snapshotCounter());
        for (Map.Entry<Bytes, VersionedValue> entry : engine.store().sortedView(engine.snapshotCounter())) {
            byte[] key = entry.getKey().unsafeArray();
            byte[] value = entry.getValue().value().unsafeArray();
            hasher.putInt(key.length).putBytes(key).putLong(entry.getValue().version());
            hasher.putInt(value.length).putBytes(value);
        }
        return hasher.hash().asLong();
    }
}
