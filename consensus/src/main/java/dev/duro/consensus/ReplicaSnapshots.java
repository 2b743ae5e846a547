package dev.duro.consensus;

import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one replica's snapshots hold, taken and restored: the engine's whole replicated state ({@link
 * EngineStateCodec}) frozen under the engine's lock at the last applied index and handed to the {@link
 * SnapshotWriter}, and an engine restored from a file whose digest still matches ({@link SnapshotFolder}). When to
 * take one and when to load one is Ratis's, through the {@link PartitionStateMachine}, which also keeps the applied
 * index: it hands that in, to be read or set in the same critical section as the engine.
 */
final class ReplicaSnapshots {
    /** The replica's logger: its lines read as they did before this class was taken out of it. */
    private static final Logger LOG = LoggerFactory.getLogger(PartitionStateMachine.class);

    private final int partition;
    private final EngineSettings settings;
    private final EngineStateCodec stateCodec;
    private final SnapshotFolder folder;
    private final ReplicaEngine engine;
    private final SnapshotWriter writer;

    ReplicaSnapshots(
            int partition,
            EngineSettings settings,
            EngineStateCodec stateCodec,
            SnapshotFolder folder,
            ReplicaEngine engine,
            SnapshotWriter writer) {
        this.partition = partition;
        this.settings = settings;
        this.stateCodec = stateCodec;
        this.folder = folder;
        this.engine = engine;
        this.writer = writer;
    }

    /**
     * Replaces the engine with the one in {@code snapshot}, if there is one, and sets the applied index to its
     * position. The whole file is read into memory and decoded there, so a replica needs about twice its state's
     * size in heap while it loads one.
     */
    void restore(@Nullable SingleFileSnapshotInfo snapshot, String source, Consumer<TermIndex> setApplied)
            throws IOException {
        if (snapshot == null) {
            return;
        }
        long startNanos = System.nanoTime();
        Path file = snapshot.getFile().getPath();
        byte[] state = folder.readVerified(snapshot);
        PartitionEngine restored;
        try {
            restored = stateCodec.read(state, partition, settings);
        } catch (RuntimeException e) {
            throw new IOException(
                    "partition " + partition + " snapshot " + file + " cannot be decoded: " + e.getMessage(), e);
        }
        engine.replace(restored, () -> setApplied.accept(snapshot.getTermIndex()));
        writer.raiseFloor(snapshot.getIndex());
        LOG.info(
                "partition {} restored from snapshot at {} (SC {}, {} bytes, loaded in {} ms), {}",
                partition,
                snapshot.getTermIndex(),
                restored.snapshotCounter(),
                state.length,
                (System.nanoTime() - startNanos) / 1_000_000,
                source);
    }

    /**
     * Answers the index of a snapshot written since the last call, if any; otherwise freezes the state now, if no
     * write is running, for the {@link SnapshotWriter} to write beside applying, and answers {@link
     * SnapshotWriter#NONE}. {@code lastApplied} is read under the engine's lock with the state it describes; it
     * answers null when there is nothing to take (nothing applied, or the replica is not running).
     */
    long take(Supplier<TermIndex> lastApplied) {
        long finished = writer.takeFinished();
        if (finished != SnapshotWriter.NONE) {
            return finished;
        }
        writer.startIfIdle(() -> engine.fromEngine(locked -> {
            TermIndex last = lastApplied.get();
            if (last == null) {
                return null;
            }
            LockHold.Started freezing = LockHold.start();
            EngineStateCodec.Frozen frozen = stateCodec.freeze(locked);
            return new SnapshotWriter.Job(last, frozen, freezing.end());
        }));
        return SnapshotWriter.NONE;
    }
}
