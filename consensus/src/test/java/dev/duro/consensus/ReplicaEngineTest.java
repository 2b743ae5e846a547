package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.EngineSettings;
import dev.duro.core.engine.PartitionEngine;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The replica's engine behind its lock: reads that wait for a snapshot, and what runs where they are woken. */
class ReplicaEngineTest {
    private static CommitRequest localWrite(long sequence, String key) {
        return new CommitRequest(
                new TxId(7, sequence), List.of(0), 0, List.of(), List.of(new Write(Bytes.utf8(key), Bytes.utf8("v"))));
    }

    @Test
    void aReadWaitingForASnapshotIsWokenByTheEntryThatReachesIt() {
        ReplicaEngine replica = new ReplicaEngine(new PartitionEngine(0, EngineSettings.DEFAULT));
        CompletableFuture<Long> second = replica.awaitSnapshot(2);
        CompletableFuture<Long> first = replica.awaitSnapshot(1);

        replica.deliverAll(List.of(localWrite(1, "a")), () -> {});
        assertEquals(1L, first.getNow(-1L));
        assertFalse(second.isDone(), "snapshot 2 is not reached by one commit");

        replica.deliverAll(List.of(localWrite(2, "b")), () -> {});
        assertEquals(2L, second.getNow(-1L));
        assertEquals(2L, replica.awaitSnapshot(2).getNow(-1L), "a reached snapshot answers at once");
    }

    /**
     * A woken read runs on the thread that applied the entry. It must run after the lock is released: the replica's
     * other readers, the frontier publisher and the next entry would otherwise wait on it.
     */
    @Test
    void aWokenReadDoesNotRunUnderTheReplicaLock() throws Exception {
        ReplicaEngine replica = new ReplicaEngine(new PartitionEngine(0, EngineSettings.DEFAULT));
        AtomicBoolean lockFreeInCallback = new AtomicBoolean();
        CompletableFuture<Long> woken = replica.awaitSnapshot(1).thenApply(counter -> {
            // Another thread takes the lock; under the lock this callback would block it until it gave up.
            CompletableFuture<Long> elsewhere = CompletableFuture.supplyAsync(replica::snapshotCounter);
            try {
                lockFreeInCallback.set(elsewhere.get(10, TimeUnit.SECONDS) == 1L);
            } catch (Exception blocked) {
                lockFreeInCallback.set(false);
            }
            return counter;
        });

        replica.deliverAll(List.of(localWrite(1, "a")), () -> {});

        assertEquals(1L, woken.get(30, TimeUnit.SECONDS));
        assertTrue(lockFreeInCallback.get(), "the woken read ran while the applying thread held the replica lock");
    }
}
