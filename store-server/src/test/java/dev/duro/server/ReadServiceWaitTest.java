package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where a read that waited for its snapshot is served: not on the thread that completed the wait (in a node, the
 * apply thread of the entry that moved SC), but on the connection's event loop.
 */
class ReadServiceWaitTest {
    private static final Duration LONG = Duration.ofSeconds(30);

    private final ExecutorService loop = Executors.newSingleThreadExecutor(task -> new Thread(task, "test-loop"));

    @AfterEach
    void stop() {
        loop.shutdownNow();
    }

    @Test
    void aReadThatWaitedGoesOnOnTheGivenExecutorNotOnTheWakingThread() throws Exception {
        assertEquals("test-loop", threadServingAReadWokenBy("test-applier", loop));
    }

    @Test
    void aReadWhoseSnapshotIsThereIsServedAtOnceOnTheCallingThread() {
        AtomicReference<String> servedOn = new AtomicReference<>();
        CompletableFuture<String> served =
                ReadService.continueWhenReached(CompletableFuture.completedFuture(7L), LONG, loop, failure -> {
                    servedOn.set(Thread.currentThread().getName());
                    return failure == null ? "read" : "failed";
                });
        assertTrue(served.isDone(), "no hop when nothing has to be waited for");
        assertEquals("read", served.join());
        assertEquals(Thread.currentThread().getName(), servedOn.get());
    }

    @Test
    void aClosingLoopLeavesTheReadToTheWakingThreadInsteadOfDroppingIt() throws Exception {
        Executor closing = task -> {
            throw new RejectedExecutionException("closing");
        };
        assertEquals("test-applier", threadServingAReadWokenBy("test-applier", closing));
    }

    /**
     * Waits a read on a snapshot not reached yet, reaches it from a thread named {@code waker}, and returns the name
     * of the thread that served the read (which must succeed).
     */
    private static String threadServingAReadWokenBy(String waker, Executor continueOn) throws Exception {
        CompletableFuture<Long> reached = new CompletableFuture<>();
        AtomicReference<String> servedOn = new AtomicReference<>();
        CompletableFuture<String> served = ReadService.continueWhenReached(reached, LONG, continueOn, failure -> {
            servedOn.set(Thread.currentThread().getName());
            return failure == null ? "read" : "failed";
        });
        Thread applier = new Thread(() -> reached.complete(7L), waker);
        applier.start();
        applier.join();
        assertEquals("read", served.get(30, TimeUnit.SECONDS));
        return servedOn.get();
    }

    @Test
    void aReadThatWaitsTooLongIsAnsweredWithTheTimeout() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        CompletableFuture<String> served =
                ReadService.continueWhenReached(new CompletableFuture<>(), Duration.ofMillis(50), loop, failure -> {
                    seen.set(failure);
                    return failure == null ? "read" : "failed";
                });
        assertEquals("failed", served.get(30, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, seen.get());
    }

    @Test
    void aReadWhoseWaitCompletedNormallySeesNoFailure() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>(new IllegalStateException("not called"));
        CompletableFuture<Long> reached = new CompletableFuture<>();
        CompletableFuture<String> served = ReadService.continueWhenReached(reached, LONG, loop, failure -> {
            seen.set(failure);
            return "read";
        });
        reached.complete(3L);
        served.get(30, TimeUnit.SECONDS);
        assertNull(seen.get());
    }
}
