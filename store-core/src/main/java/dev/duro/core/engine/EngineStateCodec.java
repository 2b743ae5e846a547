package dev.duro.core.engine;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.VersionedValue;
import dev.duro.core.certify.Certifier;
import dev.duro.core.certify.FrozenWindow;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import dev.duro.core.store.FrozenStore;
import dev.duro.core.store.MultiVersionStore;
import java.io.OutputStream;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

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
 *
 * <p>This class writes the header (partition and {@code SC}), the store, the window, the forgotten ids and the two
 * vectors, and owns the order of the sections; {@link TransactionStateCodec} writes and reads the sections that hold
 * the transactions.
 */
public final class EngineStateCodec {
    private static final int MAGIC = 0x44555245; // "DURE"
    /** Format 3: retention with forgotten-up-to, pinned globals and the dependency vector (docs/window-safety.md). */
    private static final int FORMAT_VERSION = 3;

    private final TransactionStateCodec transactions;

    public EngineStateCodec(Limits limits) {
        this.transactions = new TransactionStateCodec(new CoreCodec(limits));
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
     * The engine's state as it is now, to be written while the engine goes on delivering, in a time that does not grow
     * with the store: the store is {@linkplain MultiVersionStore#freeze frozen} (a reference per page of keys), the
     * certification window ({@link Certifier#freeze}) and the retained outcomes copied in chunks, the newer filter of
     * forgotten ids copied; the rest (the vectors, {@code PENDING}, the pinned outcomes and buffered votes: bounded by
     * the transactions in flight) is encoded at once. What {@link Frozen#writeTo} writes later is byte for byte what
     * {@link #write} would have written now.
     */
    public Frozen freeze(PartitionEngine engine) {
        ByteWriter head = new ByteWriter(32);
        head.writeInt(MAGIC).writeInt(FORMAT_VERSION);
        head.writeInt(engine.partition());
        head.writeLong(engine.snapshotCounter());
        ForgottenIds forgotten = engine.retention().forgotten().frozenCopy();
        ByteWriter vectors = new ByteWriter(256);
        writeVector(vectors, engine.frontiers().dependencies());
        writeVector(vectors, engine.cutFloor());
        return new Frozen(
                engine,
                head,
                engine.store().freeze(),
                engine.certifier().freeze(),
                forgotten,
                vectors,
                transactions.freeze(engine));
    }

    /**
     * A partition engine's state frozen by {@link #freeze}, written later, in pieces, by {@link #writeTo}. Its
     * owner must {@link #release} it (with the engine to itself) whether or not it was written: until then the
     * store collects no garbage.
     */
    public static final class Frozen {
        /**
         * Keys (or queued collections) written per exclusive turn: a fraction of a millisecond of encoding at a
         * million keys, each a few cache misses (4,096 took 1–4 ms, and their turns were the longest stalls of a
         * snapshot: docs/performance.md, "Snapshots that do not stall").
         */
        private static final int STORE_ITEMS_PER_TURN = 1024;
        /**
         * Bytes a turn stops at: the turn's buffer holds a copy of what the turn encoded, so with large values an
         * item count alone would copy much of the store into memory (1,024 values of 1 MiB are a gigabyte).
         */
        private static final int STORE_BYTES_PER_TURN = 1 << 18;

        private final PartitionEngine engine;
        private final long snapshotCounter;
        private final ByteWriter head;
        private final FrozenStore store;
        private final FrozenWindow window;
        private final ForgottenIds forgotten;
        private final ByteWriter vectors;
        private final TransactionStateCodec.Frozen transactions;
        private boolean written;
        private boolean released;

        private Frozen(
                PartitionEngine engine,
                ByteWriter head,
                FrozenStore store,
                FrozenWindow window,
                ForgottenIds forgotten,
                ByteWriter vectors,
                TransactionStateCodec.Frozen transactions) {
            this.engine = engine;
            this.snapshotCounter = engine.snapshotCounter();
            this.head = head;
            this.store = store;
            this.window = window;
            this.forgotten = forgotten;
            this.vectors = vectors;
            this.transactions = transactions;
        }

        /** {@code SC} of the frozen state. */
        public long snapshotCounter() {
            return snapshotCounter;
        }

        /**
         * Writes the frozen state to {@code sink} and returns its size. The store is read in turns, each run through
         * {@code exclusive}, which must run it with the engine to itself (under the lock that guards the engine);
         * passing bytes on to {@code sink} happens outside those turns.
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
            ByteWriter turn = new ByteWriter(1 << 16);
            boolean[] more = {true};
            while (more[0]) {
                exclusive.accept(() -> more[0] = store.writeNext(turn, STORE_ITEMS_PER_TURN, STORE_BYTES_PER_TURN));
                turn.moveTo(out);
            }
            // The rest is the frozen state's own, immutable: no turn needed.
            window.writeTo(out);
            forgotten.writeTo(out);
            vectors.moveTo(out);
            transactions.writeTo(out);
            // Written once: the copies go back to the engine at the release, holding nothing (Chunked.clear).
            window.clear();
            transactions.decided().clear();
        }

        /**
         * Lets the store collect again, and hands the window's and the retained outcomes' copies back to the engine
         * for its next freeze to copy into (this state is not read again); needs the engine to itself. A second call
         * does nothing.
         */
        public void release() {
            store.release();
            if (!released) {
                released = true;
                engine.certifier().recycle(window);
                engine.retention().decided().recycle(transactions.decided());
            }
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
        engine.retention().restoreForgotten(forgotten);
        engine.frontiers().restore(dependencies, cutFloor);
        transactions.read(in, engine);
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

    /**
     * A digest of what readers can observe: {@code SC} and every key's value at {@code SC}. Replicas of a
     * partition that delivered the same log have equal digests.
     */
    public static long contentDigest(PartitionEngine engine) {
        Hasher hasher = Hashing.murmur3_128().newHasher();
        hasher.putLong(engine.snapshotCounter());
        for (Map.Entry<Bytes, VersionedValue> entry : engine.store().sortedView(engine.snapshotCounter())) {
            byte[] key = entry.getKey().unsafeArray();
            byte[] value = Objects.requireNonNull(entry.getValue().value(), "a present value")
                    .unsafeArray();
            hasher.putInt(key.length).putBytes(key).putLong(entry.getValue().version());
            hasher.putInt(value.length).putBytes(value);
        }
        return hasher.hash().asLong();
    }
}
