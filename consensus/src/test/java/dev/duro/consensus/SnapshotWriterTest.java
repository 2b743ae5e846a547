package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.duro.core.Limits;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.EngineStateCodec;
import dev.duro.core.engine.PartitionEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.server.storage.StorageImplUtils;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.util.SizeInBytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the {@link SnapshotWriter} promises Ratis: an index it reports is durable and registered, is reported once,
 * and is never at or below one Ratis already holds (Ratis asserts so); one write runs at a time. On a real Ratis
 * storage folder, with an empty engine's state.
 */
@Timeout(30)
class SnapshotWriterTest {
    @TempDir
    Path data;

    private final EngineStateCodec codec = new EngineStateCodec(Limits.DEFAULT);
    private final PartitionEngine engine = new PartitionEngine(0, EngineSettings.DEFAULT);
    private final Object lock = new Object();
    private final AtomicInteger frozen = new AtomicInteger();

    private RaftStorage raftStorage;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private SnapshotWriter writer;

    @BeforeEach
    void start() throws IOException {
        raftStorage = StorageImplUtils.newRaftStorage(
                data.toFile(),
                SizeInBytes.ZERO,
                RaftStorage.StartupOption.FORMAT,
                RaftServerConfigKeys.Log.CorruptionPolicy.EXCEPTION);
        raftStorage.initialize();
        storage.init(raftStorage);
        writer = writer(this::underTheLock);
    }

    @AfterEach
    void stop() throws IOException {
        writer.close();
        raftStorage.close();
    }

    private SnapshotWriter writer(Consumer<Runnable> exclusive) {
        return new SnapshotWriter(
                0, storage, exclusive, LogContext.daemonThreads("snapshot-writer-p0", () -> "test", 0));
    }

    private void underTheLock(Runnable turn) {
        synchronized (lock) {
            turn.run();
        }
    }

    /** The engine's state frozen as the state machine freezes it, as the snapshot of log index {@code index}. */
    private SnapshotWriter.Job job(long index) {
        frozen.incrementAndGet();
        synchronized (lock) {
            return new SnapshotWriter.Job(TermIndex.valueOf(1, index), codec.freeze(engine), LockHold.NONE);
        }
    }

    /** Asks for the finished snapshot as Ratis does after each batch, until there is one; its index. */
    private long awaitFinished(SnapshotWriter snapshots) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            long index = snapshots.takeFinished();
            if (index != SnapshotWriter.NONE) {
                return index;
            }
            Thread.sleep(2); // the writer works on its own thread
        }
        return fail("no snapshot finished within 20 s");
    }

    private List<String> filesInTheFolder() throws IOException {
        try (Stream<Path> files =
                Files.list(raftStorage.getStorageDir().getStateMachineDir().toPath())) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aWrittenSnapshotIsReportedOnceWithItsDigestInPlace() throws Exception {
        writer.startIfIdle(() -> job(11));

        assertEquals(11, awaitFinished(writer));
        assertEquals(SnapshotWriter.NONE, writer.takeFinished(), "reported once");
        assertEquals(List.of("snapshot.1_11", "snapshot.1_11.md5"), filesInTheFolder());
        assertEquals(11, storage.getLatestSnapshot().getIndex(), "registered for Ratis and for peers that fetch it");
        assertTrue(storage.getLatestSnapshot().hasMd5());
    }

    @Test
    void aSnapshotAtOrBelowTheNewestRatisHoldsIsNeitherWrittenNorReported() throws Exception {
        writer.raiseFloor(20); // e.g. one installed from the leader

        writer.startIfIdle(() -> job(20));
        writer.startIfIdle(() -> job(15));

        assertEquals(2, frozen.get(), "frozen, then released unwritten");
        writer.startIfIdle(() -> job(21)); // the writer is idle: this one is written
        assertEquals(21, awaitFinished(writer));
        assertEquals(List.of("snapshot.1_21", "snapshot.1_21.md5"), filesInTheFolder(), "20 and 15 never were");
    }

    @Test
    void whileAWriteRunsNoOtherStartsAndNothingIsFrozen() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        SnapshotWriter held = writer(turn -> {
            writing.countDown();
            try {
                assertTrue(finish.await(20, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            underTheLock(turn);
        });
        try {
            held.startIfIdle(() -> job(40));
            assertTrue(writing.await(20, TimeUnit.SECONDS), "the write started");

            held.startIfIdle(() -> job(41));

            assertEquals(1, frozen.get(), "the second request did not freeze the engine");
            assertEquals(SnapshotWriter.NONE, held.takeFinished());
            finish.countDown();
            assertEquals(40, awaitFinished(held));
            assertFalse(filesInTheFolder().contains("snapshot.1_41"));
        } finally {
            finish.countDown();
            held.close();
        }
    }
}
