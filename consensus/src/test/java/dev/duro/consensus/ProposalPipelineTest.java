package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.consensus.ProposalQueue.Lane;
import dev.duro.core.OverloadedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Group commit without Raft: the limits of {@code raft.batch-commands-max}, {@code raft.batch-bytes-max},
 * {@code raft.queued-bytes-max} and {@code raft.proposals-in-flight-max} as a committer applies them, and what a
 * failed proposal does. The proposer here records each entry and lets the test answer it, in any order.
 */
@Timeout(10) // a broken pipeline may stall: fail then, rather than hang the build
class ProposalPipelineTest {
    private static final int BATCH_COMMANDS_MAX = 3;
    private static final int BATCH_BYTES_MAX = 1024; // the least the settings allow
    private static final long QUEUED_BYTES_MAX = 4096;

    /** One proposed log entry: its commands' names, and how to answer it. */
    private record Entry(List<String> commands, Consumer<Throwable> answer) {
        void commit() {
            answer.accept(null);
        }

        void fail(Throwable why) {
            answer.accept(why);
        }
    }

    private final List<Entry> proposed = new ArrayList<>();

    private static ConsensusSettings settings(int proposalsInFlightMax) {
        return settings(proposalsInFlightMax, 0);
    }

    private static ConsensusSettings settings(int proposalsInFlightMax, long lingerMicros) {
        return new ConsensusSettings(
                Path.of("raft"),
                "127.0.0.1",
                0,
                true,
                20_000,
                BATCH_COMMANDS_MAX,
                BATCH_BYTES_MAX,
                QUEUED_BYTES_MAX,
                proposalsInFlightMax,
                Duration.ofSeconds(3),
                lingerMicros);
    }

    private ProposalPipeline pipeline(int proposalsInFlightMax) {
        return new ProposalPipeline(7, settings(proposalsInFlightMax), this::record);
    }

    private void record(List<byte[]> encoded, Consumer<Throwable> answer) {
        synchronized (proposed) {
            proposed.add(
                    new Entry(encoded.stream().map(ProposalPipelineTest::nameOf).toList(), answer));
        }
    }

    /** The waits a lingering pipeline asked its timer for, in order; the test fires them by hand. */
    private final List<Runnable> timers = new ArrayList<>();

    private final List<Long> timerNanos = new ArrayList<>();

    /**
     * How far the lingering pipeline's clock moves at each reading: one reading when an entry is proposed and one
     * when it is answered, so every round takes this long. Long by default, so that entries wait the whole {@code
     * raft.batch-linger-micros}.
     */
    private long clockStepNanos = 1_000_000_000L;

    private long clockNanos;

    private ProposalPipeline lingering(long lingerMicros) {
        return new ProposalPipeline(7, settings(1, lingerMicros), this::record, new ProposalPipeline.Delays() {
            @Override
            public void after(long nanos, Runnable task) {
                timerNanos.add(nanos);
                timers.add(task);
            }

            @Override
            public long nanoTime() {
                clockNanos += clockStepNanos;
                return clockNanos;
            }
        });
    }

    /** Gets {@code pipeline} to where the entry before the next carried two commands: its partition is busy. */
    private void busy(ProposalPipeline pipeline) {
        pipeline.submit(command("a"), Lane.COMMIT);
        pipeline.submit(command("b1"), Lane.COMMIT);
        pipeline.submit(command("b2"), Lane.COMMIT);
        entry(0).commit();
        assertEquals(List.of(List.of("a"), List.of("b1", "b2")), entries(), "after one command, no wait");
        assertTrue(timers.isEmpty(), "an entry after a single command never waits");
    }

    /** A command of {@code bytes} bytes that starts with its name, padded with zeros. */
    private static byte[] command(String name, int bytes) {
        byte[] encoded = Arrays.copyOf(name.getBytes(StandardCharsets.UTF_8), bytes);
        assertEquals(name, nameOf(encoded), "the name fits the command");
        return encoded;
    }

    private static byte[] command(String name) {
        return command(name, 16);
    }

    private static String nameOf(byte[] encoded) {
        int end = 0;
        while (end < encoded.length && encoded[end] != 0) {
            end++;
        }
        return new String(encoded, 0, end, StandardCharsets.UTF_8);
    }

    /** Why {@code future} failed; it must have failed already (a test never waits for one). */
    private static Throwable failureOf(CompletableFuture<Void> future) {
        assertTrue(future.isCompletedExceptionally(), "failed");
        return assertThrows(CompletionException.class, future::join).getCause();
    }

    private List<List<String>> entries() {
        synchronized (proposed) {
            return proposed.stream().map(Entry::commands).toList();
        }
    }

    private Entry entry(int index) {
        synchronized (proposed) {
            return proposed.get(index);
        }
    }

    @Test
    void commandsSubmittedWhileAnEntryIsInFlightGoOutTogetherAsTheNextEntry() {
        ProposalPipeline pipeline = pipeline(1);
        CompletableFuture<Void> first = pipeline.submit(command("c1"), Lane.COMMIT);
        CompletableFuture<Void> second = pipeline.submit(command("c2"), Lane.COMMIT);
        CompletableFuture<Void> third = pipeline.submit(command("c3"), Lane.COMMIT);

        assertEquals(List.of(List.of("c1")), entries(), "the first command goes out at once, alone");
        entry(0).commit();

        assertTrue(first.isDone() && !first.isCompletedExceptionally());
        assertEquals(List.of(List.of("c1"), List.of("c2", "c3")), entries(), "the others waited for its answer");
        assertFalse(second.isDone(), "a command is appended only when its own entry is");
        entry(1).commit();
        assertTrue(second.isDone() && third.isDone());
        assertEquals(2, pipeline.entriesSent());
        assertEquals(3, pipeline.commandsSent());
    }

    @Test
    void anEntryHoldsAtMostBatchCommandsMaxAndTheOrderIsKeptAcrossEntries() {
        ProposalPipeline pipeline = pipeline(1);
        for (int i = 0; i < 8; i++) {
            pipeline.submit(command("c" + i), Lane.COMMIT);
        }
        for (int i = 0; i < entries().size(); i++) { // answers as they come: each answer sends the next entry
            entry(i).commit();
        }

        assertEquals(
                List.of(List.of("c0"), List.of("c1", "c2", "c3"), List.of("c4", "c5", "c6"), List.of("c7")), entries());
    }

    @Test
    void anEntryIsCutBeforeTheCommandThatWouldTakeItPastBatchBytesMax() {
        ProposalPipeline pipeline = pipeline(1);
        pipeline.submit(command("first"), Lane.COMMIT); // in flight: the rest queue behind it
        pipeline.submit(command("a", 600), Lane.COMMIT);
        pipeline.submit(command("b", 424), Lane.COMMIT); // 600 + 424 = 1024: exactly full
        pipeline.submit(command("c", 1), Lane.COMMIT);
        entry(0).commit();
        entry(1).commit();

        assertEquals(List.of(List.of("first"), List.of("a", "b"), List.of("c")), entries());
    }

    @Test
    void aCommandLargerThanAnEntryGoesOutAloneInItsOwnEntry() {
        ProposalPipeline pipeline = pipeline(1);
        pipeline.submit(command("first"), Lane.COMMIT);
        pipeline.submit(command("small"), Lane.COMMIT);
        pipeline.submit(command("huge", 3 * BATCH_BYTES_MAX), Lane.COMMIT);
        pipeline.submit(command("after"), Lane.COMMIT);
        for (int i = 0; i < entries().size(); i++) {
            entry(i).commit();
        }

        assertEquals(
                List.of(List.of("first"), List.of("small"), List.of("huge"), List.of("after")),
                entries(),
                "never split, never refused for its size alone while the queue can hold it");
    }

    @Test
    void aCommandLargerThanTheWholeQueueIsTakenWhenItsLaneIsEmptyAndRefusedBehindOthers() {
        ProposalPipeline pipeline = pipeline(1);
        CompletableFuture<Void> giant = pipeline.submit(command("giant", (int) QUEUED_BYTES_MAX + 1), Lane.COMMIT);
        assertEquals(List.of(List.of("giant")), entries(), "alone, it goes out at once: refused, it would be forever");

        pipeline.submit(command("next"), Lane.COMMIT); // waits behind the giant's entry
        OverloadedException refused = assertThrows(
                OverloadedException.class,
                () -> pipeline.submit(command("giant2", (int) QUEUED_BYTES_MAX + 1), Lane.COMMIT));
        assertTrue(refused.getMessage().contains("raft.queued-bytes-max " + QUEUED_BYTES_MAX), refused.getMessage());

        entry(0).commit();
        assertTrue(giant.isDone() && !giant.isCompletedExceptionally());
        assertEquals(List.of("next"), entries().get(1));
    }

    @Test
    void aFullQueueRefusesCommitRequestsAsOverloadedUntilAnEntryTakesThemOut() {
        ProposalPipeline pipeline = pipeline(1);
        pipeline.submit(command("in-flight"), Lane.COMMIT); // proposed at once: what follows waits in the queue
        for (int i = 1; i <= 4; i++) {
            pipeline.submit(command("q" + i, 1000), Lane.COMMIT);
        }

        OverloadedException full =
                assertThrows(OverloadedException.class, () -> pipeline.submit(command("q5", 200), Lane.COMMIT));
        assertTrue(full.getMessage().contains("partition 7 has 4000 bytes of commit requests"), full.getMessage());
        CompletableFuture<Void> decision = pipeline.submit(command("decision"), Lane.DECISION); // its own lane has room

        entry(0).commit();
        assertEquals(List.of("decision", "q1"), entries().get(1), "the decision first, then what fits beside it");
        pipeline.submit(command("q5", 200), Lane.COMMIT); // q1's bytes left the queue with its entry
        entry(1).commit();
        assertTrue(decision.isDone());
        for (int i = 2; i < entries().size(); i++) {
            entry(i).commit();
        }
        assertEquals(
                List.of(List.of("q2"), List.of("q3"), List.of("q4"), List.of("q5")),
                entries().subList(2, entries().size()));
    }

    @Test
    void noMoreThanProposalsInFlightMaxEntriesAwaitTheirAnswerAtOnce() {
        ProposalPipeline pipeline = pipeline(2);
        pipeline.submit(command("c1"), Lane.COMMIT);
        pipeline.submit(command("c2"), Lane.COMMIT);
        pipeline.submit(command("c3"), Lane.COMMIT);
        pipeline.submit(command("c4"), Lane.COMMIT);

        assertEquals(List.of(List.of("c1"), List.of("c2")), entries(), "two entries in flight; c3 and c4 wait");
        entry(1).commit(); // answers may come out of order: any answer frees a slot
        assertEquals(List.of(List.of("c1"), List.of("c2"), List.of("c3", "c4")), entries());
        pipeline.submit(command("c5"), Lane.COMMIT);
        assertEquals(3, entries().size(), "c1 and c3+c4 are in flight: c5 waits");
        entry(0).commit();
        assertEquals(List.of("c5"), entries().get(3));
    }

    @Test
    void aFailedProposalFailsEveryCommandOfItsEntryWithItsReasonAndTheNextEntryStillGoesOut() {
        ProposalPipeline pipeline = pipeline(1);
        CompletableFuture<Void> c1 = pipeline.submit(command("c1"), Lane.COMMIT);
        CompletableFuture<Void> c2 = pipeline.submit(command("c2"), Lane.COMMIT);
        CompletableFuture<Void> c3 = pipeline.submit(command("c3"), Lane.COMMIT);
        entry(0).commit();
        CompletableFuture<Void> c4 = pipeline.submit(command("c4"), Lane.COMMIT); // queued behind the entry c2+c3

        IOException notLeader = new IOException("not the leader any more");
        entry(1).fail(notLeader);

        assertTrue(c1.isDone() && !c1.isCompletedExceptionally(), "an earlier entry is not affected");
        for (CompletableFuture<Void> failed : List.of(c2, c3)) {
            assertSame(notLeader, failureOf(failed), "the proposal's own reason, for the caller to act on");
        }
        assertEquals(List.of("c4"), entries().get(2), "the failure freed its slot: the pipeline does not stall");
        assertFalse(c4.isDone());
        entry(2).commit();
        assertTrue(c4.isDone() && !c4.isCompletedExceptionally());
        assertEquals(4, pipeline.commandsSent(), "failed commands were sent, and count as such");
    }

    @Test
    void aProposerThatThrowsFailsItsEntryAndTheNextEntryStillGoesOut() {
        List<List<String>> attempts = new ArrayList<>();
        IllegalStateException broken = new IllegalStateException("raft client closed");
        ProposalPipeline pipeline = new ProposalPipeline(7, settings(1), (encoded, answer) -> {
            List<String> names =
                    encoded.stream().map(ProposalPipelineTest::nameOf).toList();
            attempts.add(names);
            if (names.contains("poison")) {
                throw broken;
            }
            answer.accept(null); // answered at once: the pipeline must not recurse into a stall either
        });

        CompletableFuture<Void> poison = pipeline.submit(command("poison"), Lane.COMMIT);
        CompletableFuture<Void> after = pipeline.submit(command("after"), Lane.COMMIT);

        assertSame(broken, failureOf(poison), "the caller learns why its command was not proposed");
        assertTrue(after.isDone() && !after.isCompletedExceptionally(), "the slot was freed: the queue moves on");
        assertEquals(List.of(List.of("poison"), List.of("after")), attempts);
    }

    @Test
    void closingFailsWhatIsQueuedLeavesWhatIsInFlightToItsProposalAndRefusesMore() {
        ProposalPipeline pipeline = pipeline(1);
        CompletableFuture<Void> inFlight = pipeline.submit(command("in-flight"), Lane.COMMIT);
        CompletableFuture<Void> queued = pipeline.submit(command("queued"), Lane.COMMIT);
        CompletableFuture<Void> urgent = pipeline.submit(command("urgent"), Lane.CONTROL);

        pipeline.close();

        for (CompletableFuture<Void> abandoned : List.of(queued, urgent)) {
            IOException cause = assertInstanceOf(IOException.class, failureOf(abandoned));
            assertEquals("shutting down", cause.getMessage());
        }
        assertFalse(inFlight.isDone(), "its entry may still commit: only Raft can tell");
        entry(0).commit();
        assertTrue(inFlight.isDone() && !inFlight.isCompletedExceptionally());
        assertEquals(1, entries().size(), "nothing more is proposed after closing");
        IllegalStateException closed =
                assertThrows(IllegalStateException.class, () -> pipeline.submit(command("late"), Lane.COMMIT));
        assertTrue(closed.getMessage().contains("partition 7 committer is closed"), closed.getMessage());
    }

    @Test
    void aBusyPartitionsNextEntryWaitsForCompanyUntilItsTimerFires() {
        ProposalPipeline pipeline = lingering(700);
        busy(pipeline);
        CompletableFuture<Void> c = pipeline.submit(command("c"), Lane.COMMIT);
        entry(1).commit();

        assertEquals(2, entries().size(), "the entry after two commands waits");
        assertEquals(List.of(700_000L), timerNanos, "for raft.batch-linger-micros");
        pipeline.submit(command("d"), Lane.COMMIT);
        assertEquals(2, entries().size(), "and a command arriving meanwhile joins it");
        timers.get(0).run();

        assertEquals(List.of("c", "d"), entries().get(2), "the timer sends what has come");
        entry(2).commit();
        assertTrue(c.isDone() && !c.isCompletedExceptionally());
        assertEquals(3, pipeline.entriesSent());
        assertEquals(5, pipeline.commandsSent());
    }

    @Test
    void anEntryWaitsHalfTheLastRoundWhenThatIsShorterThanTheSetting() {
        clockStepNanos = 400_000; // every round takes 400 us
        ProposalPipeline pipeline = lingering(700);
        busy(pipeline);
        pipeline.submit(command("c"), Lane.COMMIT);
        entry(1).commit();
        assertEquals(List.of(200_000L), timerNanos, "half of the 400 us the entry before took");

        clockStepNanos = 3_000_000; // the partition slows down: rounds of 3 ms
        pipeline.submit(command("d"), Lane.COMMIT);
        timers.get(0).run();
        assertEquals(List.of("c", "d"), entries().get(2));
        entry(2).commit();
        pipeline.submit(command("e"), Lane.COMMIT);
        assertEquals(3, entries().size(), "e waits");
        assertEquals(List.of(200_000L, 700_000L), timerNanos, "never longer than raft.batch-linger-micros");
    }

    @Test
    void theRoundEndsWhenTheAnswerArrivesNotWhenItsCommandsCallbacksReturn() {
        clockStepNanos = 400_000;
        ProposalPipeline pipeline = lingering(700);
        pipeline.submit(command("a"), Lane.COMMIT);
        pipeline.submit(command("b1"), Lane.COMMIT);
        pipeline.submit(command("b2"), Lane.COMMIT)
                .whenComplete((ok, failure) -> clockNanos += 5_000_000); // a callback that takes 5 ms
        entry(0).commit();
        pipeline.submit(command("c"), Lane.COMMIT);
        entry(1).commit();

        assertEquals(List.of(200_000L), timerNanos, "half the 400 us round, without the callback's 5 ms");
    }

    @Test
    void aSingleClientsEntriesNeverWait() {
        ProposalPipeline pipeline = lingering(700);
        for (int i = 0; i < 5; i++) {
            pipeline.submit(command("c" + i), Lane.COMMIT);
            assertEquals(i + 1, entries().size(), "each command goes out at once");
            entry(i).commit();
        }
        assertTrue(timers.isEmpty());
    }

    @Test
    void aFullEntryCutsTheWaitShortAndItsTimerThenChangesNothing() {
        ProposalPipeline pipeline = lingering(700);
        busy(pipeline);
        pipeline.submit(command("c1"), Lane.COMMIT);
        entry(1).commit();
        assertEquals(1, timers.size(), "waiting");
        pipeline.submit(command("c2"), Lane.COMMIT);
        pipeline.submit(command("c3"), Lane.COMMIT); // BATCH_COMMANDS_MAX: the entry is full

        assertEquals(List.of("c1", "c2", "c3"), entries().get(2), "a full entry goes at once");
        pipeline.submit(command("c4"), Lane.COMMIT);
        timers.get(0).run(); // the timer of the wait that was cut short

        assertEquals(3, entries().size(), "it does not send c4 while c1-c3 are in flight");
        entry(2).commit();
        assertEquals(2, timers.size(), "the entry after three commands waits in its turn");
        timers.get(1).run();
        assertEquals(List.of("c4"), entries().get(3));
    }

    @Test
    void aControlCommandCutsTheWaitShortAndGoesFirst() {
        ProposalPipeline pipeline = lingering(700);
        busy(pipeline);
        pipeline.submit(command("commit"), Lane.COMMIT);
        entry(1).commit();
        assertEquals(1, timers.size(), "waiting");

        pipeline.submit(command("cut"), Lane.CONTROL);

        assertEquals(List.of("cut", "commit"), entries().get(2), "a cut does not wait for company");
        entry(2).commit();
        pipeline.submit(command("abort-request"), Lane.CONTROL);
        assertEquals(List.of("abort-request"), entries().get(3), "nor does an entry that starts with one");
        assertEquals(1, timers.size());
    }

    @Test
    void aDecisionRidesInTheWaitingEntryAheadOfItsCommitRequests() {
        ProposalPipeline pipeline = lingering(700);
        busy(pipeline);
        pipeline.submit(command("commit"), Lane.COMMIT);
        entry(1).commit();
        assertEquals(1, timers.size(), "waiting");

        pipeline.submit(command("decision"), Lane.DECISION);
        assertEquals(2, entries().size(), "a decision does not cut the wait short");
        timers.get(0).run();
        assertEquals(List.of("decision", "commit"), entries().get(2), "the timer sends it, the decision first");
    }

    @Test
    void decisionsAloneWaitAfterABusyEntryAndGoAtOnceAfterAnIdleOne() {
        ProposalPipeline pipeline = lingering(700);
        busy(pipeline); // the entry in flight carries two commit requests
        pipeline.submit(command("decision1"), Lane.DECISION);
        entry(1).commit();
        assertEquals(2, entries().size(), "a decision after a busy entry waits for company too");
        assertEquals(List.of(700_000L), timerNanos, "no longer than raft.batch-linger-micros");
        pipeline.submit(command("decision2"), Lane.DECISION);
        pipeline.submit(command("cut"), Lane.CONTROL);

        assertEquals(List.of("cut", "decision1", "decision2"), entries().get(2), "control first, then decisions");
        entry(2).commit();
        pipeline.submit(command("decision3"), Lane.DECISION);
        assertEquals(List.of("decision3"), entries().get(3), "after an entry without commit requests, at once");
        assertEquals(1, timers.size());
    }

    @Test
    void decisionsAndCutsBesideOneCommitRequestDoNotMakeThePartitionBusy() {
        ProposalPipeline pipeline = lingering(700);
        pipeline.submit(command("a"), Lane.COMMIT);
        pipeline.submit(command("decision"), Lane.DECISION);
        pipeline.submit(command("c1"), Lane.COMMIT);
        entry(0).commit();
        assertEquals(List.of("decision", "c1"), entries().get(1));
        pipeline.submit(command("c2"), Lane.COMMIT);
        entry(1).commit();

        assertEquals(List.of("c2"), entries().get(2), "one commit request per entry: nobody to wait for");
        assertTrue(timers.isEmpty());
    }

    @Test
    void aTimerThatRefusesBecauseTheNodeClosesSendsTheEntryAtOnce() {
        ProposalPipeline pipeline = new ProposalPipeline(7, settings(1, 700), this::record, (nanos, task) -> {
            throw new RejectedExecutionException("closing");
        });
        busy(pipeline);
        pipeline.submit(command("c"), Lane.COMMIT);
        entry(1).commit();

        assertEquals(List.of("c"), entries().get(2));
    }

    @Test
    void withoutATimerOrWithALingerOfZeroNothingWaits() {
        for (ProposalPipeline pipeline : List.of(
                new ProposalPipeline(7, settings(1, 700), this::record),
                new ProposalPipeline(7, settings(1, 0), this::record, (nanos, task) -> timers.add(task)))) {
            proposed.clear();
            busy(pipeline);
            pipeline.submit(command("c"), Lane.COMMIT);
            entry(1).commit();
            assertEquals(List.of("c"), entries().get(2));
        }
        assertTrue(timers.isEmpty());
    }

    @Test
    void anAnswerOnAnotherThreadSendsTheNextEntryFromThere() throws InterruptedException {
        ProposalPipeline pipeline = pipeline(1);
        pipeline.submit(command("c1"), Lane.COMMIT);
        CompletableFuture<Void> c2 = pipeline.submit(command("c2"), Lane.COMMIT);

        Thread answerer = new Thread(() -> entry(0).commit(), "raft-answer");
        answerer.start();
        answerer.join(5_000);

        assertFalse(answerer.isAlive(), "the answer returned");
        assertEquals(List.of(List.of("c1"), List.of("c2")), entries());
        entry(1).commit();
        assertTrue(c2.isDone() && !c2.isCompletedExceptionally());
    }

    @Test
    void aHandedOffEntrysCommandsJoinThisNodesEntriesAndAnswerWhenTheLastIsIn() {
        ProposalPipeline pipeline = pipeline(1);
        CompletableFuture<Void> first = pipeline.submit(command("c1"), Lane.COMMIT);
        assertEquals(List.of(List.of("c1")), entries());

        CompletableFuture<Void> handedOff = pipeline.submitAll(
                List.of(command("d1"), command("h1"), command("h2"), command("h3")),
                new Lane[] {Lane.DECISION, Lane.COMMIT, Lane.COMMIT, Lane.COMMIT});
        pipeline.submit(command("c2"), Lane.COMMIT);
        entry(0).commit();
        assertTrue(first.isDone());
        assertEquals(List.of("d1", "h1", "h2"), entry(1).commands(), "the decision first, then in their order");
        entry(1).commit();
        assertFalse(handedOff.isDone(), "h3 is in the next entry, not committed yet");
        assertEquals(List.of("h3", "c2"), entry(2).commands());
        entry(2).fail(new IOException("lost"));
        assertInstanceOf(IOException.class, failureOf(handedOff));

        // A full lane refuses the whole entry: none of it is queued.
        ProposalPipeline full = pipeline(1);
        full.submit(command("x", BATCH_BYTES_MAX), Lane.COMMIT); // in flight
        full.submit(command("y", (int) QUEUED_BYTES_MAX - 10), Lane.COMMIT);
        assertThrows(
                OverloadedException.class,
                () -> full.submitAll(List.of(command("z1"), command("z2")), new Lane[] {Lane.COMMIT, Lane.COMMIT}));
        entry(3).commit();
        assertEquals(List.of("y"), entry(4).commands(), "z1 and z2 were never queued");
    }
}
