package dev.duro.consensus;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.core.engine.EngineStateCodec;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one partition replica's state-machine snapshots on a thread of its own, so that applying the log never
 * waits for one (docs/replication.md, "Snapshots do not stop applying").
 *
 * <p>Ratis asks for a snapshot on its applier thread and purges the log up to the index it is told. So
 * {@link #startIfIdle} only freezes the engine's state (milliseconds, under the engine's lock) and hands it to
 * the writer; Ratis hears "none yet" and asks again after its next batch. The writer encodes the store in turns
 * of the engine's lock, digesting it as it goes, syncs it, saves its digest beside it, renames it into place and
 * registers it; only then does {@link #takeFinished} report its index, so the log behind a snapshot is purged only
 * once the snapshot is durable. The digest is in place before the snapshot's name is: Ratis's clean-up of old
 * snapshots counts only those with one.
 *
 * <p>Ratis must never hear an index below one it already holds (it asserts so): an index at or below the
 * {@linkplain #raiseFloor floor}, the newest snapshot Ratis knows (reported, loaded at start, or installed from
 * the leader), is never reported.
 *
 * <p>Before a snapshot installed from the leader replaces the state machine's folder, {@link #pause} abandons
 * the write in progress and waits until the writer has left the folder; {@link #close} does the same.
 */
final class SnapshotWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriter.class);
    /** Ratis's answer for "no snapshot taken". */
    static final long NONE = -1;

    /** A snapshot to write: the frozen state, the log position it holds, and how long freezing held the engine. */
    record Job(TermIndex last, EngineStateCodec.Frozen state, LockHold frozen) {}

    private final int partition;
    private final SimpleStateMachineStorage storage;
    /** Runs its argument with the engine to itself (under the state machine's lock). */
    private final Consumer<Runnable> exclusive;

    private final ExecutorService thread;

    private final Object guard = new Object();

    @GuardedBy("guard")
    private @Nullable Running running;
    /** Set by {@link #pause} until {@link #resume}. */
    @GuardedBy("guard")
    private boolean paused;

    /** The newest snapshot written and not yet reported to Ratis, or {@link #NONE}. */
    private final AtomicLong finished = new AtomicLong(NONE);
    /** The newest snapshot written, for metrics; null until one is. */
    private volatile @Nullable SnapshotWritten lastWritten;
    /** The newest snapshot index Ratis holds; see the class documentation. */
    private volatile long floor = NONE;

    private static final class Running {
        final Job job;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        /** Why the write was abandoned, or null while it is wanted. */
        volatile @Nullable String abandoned;

        Running(Job job) {
            this.job = job;
        }
    }

    /** {@code threads} makes the writer's thread (its name and logging context are the replica's to choose). */
    SnapshotWriter(
            int partition, SimpleStateMachineStorage storage, Consumer<Runnable> exclusive, ThreadFactory threads) {
        this.partition = partition;
        this.storage = storage;
        this.exclusive = exclusive;
        this.thread = Executors.newSingleThreadExecutor(threads);
    }

    /** The snapshot written since the last call, if it is newer than every one Ratis holds; else {@link #NONE}. */
    long takeFinished() {
        long done = finished.getAndSet(NONE);
        if (done > floor) {
            floor = done;
            return done;
        }
        return NONE;
    }

    @Nullable
    SnapshotWritten lastWritten() {
        return lastWritten;
    }

    /** Ratis holds a snapshot at {@code index} (loaded at start, or installed from the leader). */
    void raiseFloor(long index) {
        floor = Math.max(floor, index);
    }

    /**
     * Starts writing the state {@code freeze} returns (it runs here, and freezes under the engine's lock; null when
     * there is nothing to write), unless a write is already running or the writer is paused.
     */
    void startIfIdle(Supplier<Job> freeze) {
        Running started;
        synchronized (guard) {
            if (running != null || paused) {
                return;
            }
            Job job = freeze.get();
            if (job == null) {
                return;
            }
            if (job.last().getIndex() <= floor) {
                exclusive.accept(job.state()::release);
                return;
            }
            started = new Running(job);
            running = started;
        }
        thread.execute(() -> write(started));
    }

    /**
     * Abandons the write in progress, if any, and waits until the writer has stopped; nothing starts until resumed.
     */
    void pause() {
        stop("a snapshot from the leader replaces the state");
    }

    private void stop(String reason) {
        Running abandoned;
        synchronized (guard) {
            paused = true;
            abandoned = running;
            if (abandoned != null) {
                abandoned.abandoned = reason;
            }
        }
        if (abandoned != null) {
            abandoned.done.join();
        }
    }

    void resume() {
        synchronized (guard) {
            paused = false;
        }
    }

    @Override
    public void close() {
        stop("the replica is closing");
        thread.shutdown();
    }

    private void write(Running write) {
        long startNanos = System.nanoTime();
        TermIndex last = write.job.last();
        File target = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        Path temporary = target.toPath().resolveSibling(target.getName() + ".writing");
        Path digestFile = MD5FileUtil.getDigestFileForFile(target).toPath();
        try {
            long bytes;
            LockHold[] longestTurn = {LockHold.NONE};
            MessageDigest digest = MD5FileUtil.newMD5();
            try (FileChannel channel = FileChannel.open(
                    temporary,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                bytes = write.job
                        .state()
                        .writeTo(
                                new DigestOutputStream(Channels.newOutputStream(channel), digest),
                                turn -> exclusive.accept(() -> {
                                    if (write.abandoned != null) {
                                        throw new CancellationException();
                                    }
                                    LockHold.Started turnStart = LockHold.start();
                                    turn.run();
                                    longestTurn[0] = longestTurn[0].longer(turnStart.end());
                                }));
                channel.force(true);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            long writtenNanos = System.nanoTime();
            if (write.abandoned != null) {
                throw new CancellationException();
            }
            // The file and its digest are durable before the file's rename, and the rename before Ratis may purge
            // the log behind it.
            MD5Hash md5 = MD5Hash.newInstance(digest.digest());
            MD5FileUtil.saveMD5File(target, md5);
            Files.move(temporary, target.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(Objects.requireNonNull(target.toPath().getParent(), "a snapshot file lies in a folder"));
            storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(target.toPath(), md5), last));
            finished.accumulateAndGet(last.getIndex(), Math::max);
            lastWritten = new SnapshotWritten(
                    last.getIndex(),
                    bytes,
                    write.job.frozen().nanos(),
                    System.nanoTime() - startNanos,
                    longestTurn[0].nanos());
            LOG.info(
                    "partition {} snapshot at {} (SC {}): {} bytes, frozen in {} under the engine's lock, written in {}"
                            + " ms beside applying, its longest turn under the lock {}; synced and registered in {} ms",
                    partition,
                    last,
                    write.job.state().snapshotCounter(),
                    bytes,
                    write.job.frozen(),
                    (writtenNanos - startNanos) / 1_000_000,
                    longestTurn[0],
                    (System.nanoTime() - writtenNanos) / 1_000_000);
        } catch (CancellationException e) {
            LOG.info("partition {} snapshot at {} abandoned: {}", partition, last, write.abandoned);
            deleteQuietly(temporary);
            deleteQuietly(digestFile);
        } catch (IOException | RuntimeException e) {
            LOG.error(
                    "partition {} snapshot at {} failed; the log stays until the next one succeeds",
                    partition,
                    last,
                    e);
            deleteQuietly(temporary);
            deleteQuietly(digestFile);
        } finally {
            exclusive.accept(write.job.state()::release);
            synchronized (guard) {
                running = null;
            }
            write.done.complete(null);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", file, e.toString());
        }
    }

    /** Makes a rename in {@code directory} durable. */
    private static void syncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
