package dev.duro.core.engine;

import static dev.duro.core.engine.Transactions.key;
import static dev.duro.core.engine.Transactions.tid;
import static dev.duro.core.engine.Transactions.transaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Outcome;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.TxId;
import dev.duro.core.VersionedValue;
import dev.duro.core.Write;
import dev.duro.core.certify.CertifierSettings;
import dev.duro.core.snapshot.Frontier;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The partition engine's protocol, one scenario at a time. This engine is partition 0; its peer is 1. */
class PartitionEngineScenariosTest {
    private static final int HERE = 0;
    private static final int PEER = 1;
    private static final long RESEND_AFTER_MILLIS = 50;
    private static final long ABORT_REQUEST_AFTER_MILLIS = 1_000;
    private static final EngineSettings SETTINGS =
            EngineSettings.DEFAULT.withTimeouts(RESEND_AFTER_MILLIS, ABORT_REQUEST_AFTER_MILLIS);

    private final PartitionEngine engine = designatedVoter(new PartitionEngine(HERE, SETTINGS));

    private static PartitionEngine designatedVoter(PartitionEngine engine) {
        engine.setDesignatedVoter(true);
        return engine;
    }

    private static Effect.Reply committed(TxId tid, long version) {
        return new Effect.Reply(Outcome.committed(tid, List.of(HERE), List.of(version)));
    }

    private static Vote commitVote(TxId tid, int partition, long number) {
        return new Vote(tid, partition, number, null, false);
    }

    // ---- local transactions ----

    @Test
    void localCommitInstallsItsWritesAtTheNewPscAndAdvancesSc() {
        List<Effect> effects =
                engine.deliver(transaction(1).at(0).reads("x").writes("y", "1").local(HERE));

        assertEquals(List.of(committed(tid(1), 1)), effects);
        assertEquals(1, engine.pendingSnapshotCounter());
        assertEquals(1, engine.snapshotCounter());
        assertEquals(new VersionedValue(Bytes.utf8("1"), 1), engine.read(key("y"), 1));
        assertEquals(VersionedValue.ABSENT, engine.read(key("y"), 0));
    }

    @Test
    void localTransactionThatReadAnOverwrittenKeyAbortsNamingTheKeyAndTheWriter() {
        engine.deliver(transaction(1).at(0).writes("x").local(HERE));

        List<Effect> effects =
                engine.deliver(transaction(2).at(0).reads("w", "x").writes("z").local(HERE));

        AbortReason reason = AbortReason.readKeyOverwritten(HERE, key("x"), 1, false);
        assertEquals(List.of(new Effect.Reply(Outcome.aborted(tid(2), List.of(HERE), reason))), effects);
        assertEquals("key \"x\" read at partition 0 was overwritten by concurrent transaction #1", reason.toString());
        assertEquals(1, engine.pendingSnapshotCounter(), "an aborted local transaction gets no number");
        assertEquals(VersionedValue.ABSENT, engine.read(key("z"), 1));
    }

    @Test
    void localTransactionWithASnapshotAtPscDoesNotConflictWithWhatItSaw() {
        engine.deliver(transaction(1).at(0).writes("x").local(HERE));
        assertEquals(
                List.of(committed(tid(2), 2)),
                engine.deliver(transaction(2).at(1).reads("x").writes("x").local(HERE)));
    }

    @Test
    void snapshotsOutsideTheCertificationWindowAbort() {
        PartitionEngine small = new PartitionEngine(HERE, SETTINGS.withCertification(CertifierSettings.exact(2)));
        for (int i = 1; i <= 4; i++) {
            small.deliver(transaction(i).at(i - 1).writes("k" + i).local(HERE));
        }
        Effect tooOld =
                small.deliver(transaction(10).at(1).reads("x").local(HERE)).get(0);
        assertEquals(
                AbortReason.snapshotTooOld(HERE, 2),
                ((Effect.Reply) tooOld).outcome().reason());
        Effect invalid =
                small.deliver(transaction(11).at(5).reads("x").local(HERE)).get(0);
        assertEquals(
                AbortReason.invalidSnapshot(HERE, 4),
                ((Effect.Reply) invalid).outcome().reason());
        assertEquals(
                committed(tid(12), 5),
                small.deliver(transaction(12).at(2).reads("x").local(HERE)).get(0));
    }

    @Test
    void aWritesetNamingAKeyTwiceInstallsItsLastWrite() {
        CommitRequest twice = new CommitRequest(
                tid(1),
                List.of(HERE),
                0,
                List.of(),
                List.of(Write.put(key("x"), Bytes.utf8("first")), Write.put(key("x"), Bytes.utf8("second"))));
        assertEquals(List.of(committed(tid(1), 1)), engine.deliver(twice));
        assertEquals(new VersionedValue(Bytes.utf8("second"), 1), engine.read(key("x"), 1));
    }

    // ---- duplicates ----

    @Test
    void aRetriedCommitIsAnsweredWithTheFirstOutcome() {
        CommitRequest first = transaction(1).at(0).writes("x").local(HERE);
        List<Effect> original = engine.deliver(first);
        engine.deliver(transaction(2).at(1).writes("x").local(HERE)); // the first would now conflict with it

        assertEquals(original, engine.deliver(first));
        assertEquals(2, engine.pendingSnapshotCounter());

        CommitRequest loser = transaction(3).at(0).reads("x").local(HERE);
        List<Effect> aborted = engine.deliver(loser);
        assertEquals(aborted, engine.deliver(transaction(3).at(2).reads("x").local(HERE)));
    }

    @Test
    void aRetriedCommitOfAPendingGlobalIsIgnoredUntilItFinishes() {
        CommitRequest global = transaction(1).at(0).writes("x").global(HERE, PEER);
        engine.deliver(global);
        assertEquals(List.of(), engine.deliver(global));
        assertEquals(1, engine.pendingCount());
    }

    // ---- global transactions ----

    @Test
    void globalTransactionWaitsAtTheHeadOfPendingForEveryVoteAndHoldsBackLocalsBehindIt() {
        List<Effect> onDelivery =
                engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        Vote ownVote = commitVote(tid(1), HERE, 1);
        assertEquals(List.of(new Effect.SendVote(ownVote, List.of(PEER))), onDelivery);

        assertEquals(List.of(), engine.deliver(transaction(2).at(0).writes("l").local(HERE)));
        assertEquals(2, engine.pendingCount());
        assertEquals(2, engine.pendingSnapshotCounter());
        assertEquals(0, engine.snapshotCounter(), "nothing is readable until the head finishes");

        List<Effect> onVote = engine.receiveVote(commitVote(tid(1), PEER, 7));

        Outcome global = Outcome.committed(tid(1), List.of(HERE, PEER), List.of(1L, 7L));
        assertEquals(
                List.of(
                        new Effect.Reply(global),
                        new Effect.ProposeDecision(new Decision(global, HERE), HERE),
                        committed(tid(2), 2)),
                onVote);
        assertEquals(2, engine.snapshotCounter());
        assertEquals(new VersionedValue(Bytes.utf8("g@1"), 1), engine.read(key("g"), 2));
        assertEquals(new Frontier(HERE, 2, List.of(0L, 7L)), engine.frontier(), "depends on the global's 7 there");
    }

    @Test
    void abortVoteAbortsTheGlobalButScStillAdvancesPastItsNumber() {
        engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        engine.deliver(transaction(2).at(0).writes("l").local(HERE));
        AbortReason theirs = AbortReason.readKeyOverwritten(PEER, key("remote"), 4, false);

        List<Effect> onVote = engine.receiveVote(new Vote(tid(1), PEER, 0, theirs, false));

        Outcome aborted = Outcome.aborted(tid(1), List.of(HERE, PEER), theirs);
        assertEquals(
                List.of(
                        new Effect.Reply(aborted),
                        new Effect.ProposeDecision(new Decision(aborted, HERE), HERE),
                        committed(tid(2), 2)),
                onVote);
        assertEquals(2, engine.snapshotCounter());
        assertEquals(VersionedValue.ABSENT, engine.read(key("g"), 2), "an aborted global installs nothing");
        assertEquals(new Frontier(HERE, 2, List.of()), engine.frontier(), "an aborted global is no dependency");
    }

    @Test
    void globalThatFailsHereStillWaitsForTheOtherVotesAndGetsNoNumber() {
        engine.deliver(transaction(1).at(0).reads("y").local(HERE));
        List<Effect> onDelivery =
                engine.deliver(transaction(2).at(0).writes("y").global(HERE, PEER));

        AbortReason ours = AbortReason.writtenKeyReadConcurrently(HERE, key("y"), 1, false);
        assertEquals(List.of(new Effect.SendVote(new Vote(tid(2), HERE, 0, ours, false), List.of(PEER))), onDelivery);
        assertEquals(1, engine.pendingSnapshotCounter());

        List<Effect> onVote = engine.receiveVote(commitVote(tid(2), PEER, 3));
        Outcome aborted = Outcome.aborted(tid(2), List.of(HERE, PEER), ours);
        assertEquals(
                List.of(new Effect.Reply(aborted), new Effect.ProposeDecision(new Decision(aborted, HERE), HERE)),
                onVote);
        assertEquals(1, engine.snapshotCounter());
    }

    @Test
    void voteArrivingBeforeItsTransactionIsBufferedUntilDelivery() {
        assertEquals(List.of(), engine.receiveVote(commitVote(tid(1), PEER, 9)));

        List<Effect> onDelivery =
                engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));

        // It finishes at once; its own vote still goes out, for the peer that lacks it.
        Outcome global = Outcome.committed(tid(1), List.of(HERE, PEER), List.of(1L, 9L));
        assertEquals(
                List.of(
                        new Effect.Reply(global),
                        new Effect.ProposeDecision(new Decision(global, HERE), HERE),
                        new Effect.SendVote(commitVote(tid(1), HERE, 1), List.of(PEER))),
                onDelivery);
    }

    @Test
    void onlyTheDesignatedVoterSendsVotesOnDelivery() {
        PartitionEngine follower = new PartitionEngine(HERE, SETTINGS);
        assertEquals(
                List.of(), follower.deliver(transaction(1).at(0).writes("g").global(HERE, PEER)));
    }

    @Test
    void aVoteAskingForAReplyIsAnsweredEvenByAFollowerAndEvenAfterTheDecision() {
        PartitionEngine follower = new PartitionEngine(HERE, SETTINGS);
        follower.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        Vote ownVote = commitVote(tid(1), HERE, 1);

        List<Effect> whilePending =
                follower.receiveVote(commitVote(tid(1), PEER, 2).withReplyWanted(true));
        List<Effect> afterwards =
                follower.receiveVote(commitVote(tid(1), PEER, 2).withReplyWanted(true));

        assertEquals(new Effect.SendVote(ownVote, List.of(PEER)), whilePending.get(0));
        assertTrue(whilePending.get(1) instanceof Effect.Reply, "the vote also finished it: " + whilePending);
        assertEquals(List.of(new Effect.SendVote(ownVote, List.of(PEER))), afterwards);
    }

    // ---- timeouts (S-DUR §IV-F) ----

    @Test
    void tickResendsTheVoteAskingForRepliesAndLaterProposesAbortRequests() {
        engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        Vote askingVote = commitVote(tid(1), HERE, 1).withReplyWanted(true);
        AbortRequest abortRequest = new AbortRequest(tid(1), List.of(HERE, PEER), HERE, 0);

        assertEquals(List.of(), engine.tick(10_000), "the first tick starts the clock for this head");
        assertEquals(List.of(), engine.tick(10_000 + RESEND_AFTER_MILLIS - 1));
        assertEquals(
                List.of(new Effect.SendVote(askingVote, List.of(PEER))), engine.tick(10_000 + RESEND_AFTER_MILLIS));
        assertEquals(List.of(), engine.tick(10_000 + RESEND_AFTER_MILLIS + 1));
        assertEquals(
                List.of(new Effect.SendVote(askingVote, List.of(PEER)), new Effect.ProposeAbort(abortRequest, PEER)),
                engine.tick(10_000 + ABORT_REQUEST_AFTER_MILLIS));
    }

    /**
     * A replica replaying its log after a restart lacks the votes of every global transaction behind the head:
     * the head's first resend round asks for all of them, so they finish together once the votes come back.
     */
    @Test
    void aResendRoundAlsoAsksForTheVotesOfPendingTransactionsBehindTheHead() {
        engine.deliver(transaction(1).at(0).writes("a").global(HERE, PEER));
        engine.deliver(transaction(2).at(0).writes("b").local(HERE));
        engine.deliver(transaction(3).at(0).writes("c").global(HERE, PEER));
        engine.receiveVote(commitVote(tid(4), PEER, 9)); // its vote is here already: nothing to ask for
        engine.deliver(transaction(4).at(0).writes("d").global(HERE, PEER));

        engine.tick(0);
        assertEquals(
                List.of(
                        new Effect.SendVote(commitVote(tid(1), HERE, 1).withReplyWanted(true), List.of(PEER)),
                        new Effect.SendVote(commitVote(tid(3), HERE, 3).withReplyWanted(true), List.of(PEER))),
                engine.tick(RESEND_AFTER_MILLIS));
        assertEquals(
                List.of(new Effect.SendVote(commitVote(tid(1), HERE, 1).withReplyWanted(true), List.of(PEER))),
                engine.tick(2 * RESEND_AFTER_MILLIS),
                "later rounds for the same head ask for its vote alone");

        engine.receiveVote(commitVote(tid(3), PEER, 7));
        assertEquals(0, engine.snapshotCounter(), "nothing finishes before the head");
        List<Effect> finished = engine.receiveVote(commitVote(tid(1), PEER, 5));
        assertEquals(
                4, finished.stream().filter(e -> e instanceof Effect.Reply).count(), "all four finish: " + finished);
        assertEquals(4, engine.snapshotCounter());
    }

    /**
     * Only the designated voter, which its host makes only of a leader that has applied its log, proposes abort
     * requests: a follower still replaying old entries would ask to abort transactions its peers finished long
     * ago (docs/window-safety.md).
     */
    @Test
    void onlyTheDesignatedVoterProposesAbortRequests() {
        PartitionEngine follower = new PartitionEngine(HERE, SETTINGS);
        follower.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        follower.tick(0);
        for (long now = ABORT_REQUEST_AFTER_MILLIS;
                now <= 10 * ABORT_REQUEST_AFTER_MILLIS;
                now += RESEND_AFTER_MILLIS) {
            assertTrue(follower.tick(now).stream().noneMatch(e -> e instanceof Effect.ProposeAbort));
        }
        follower.setDesignatedVoter(true);
        assertTrue(follower.tick(11 * ABORT_REQUEST_AFTER_MILLIS).stream()
                .anyMatch(e -> e instanceof Effect.ProposeAbort));
    }

    @Test
    void theInvariantsHoldThroughCommitsAbortsAndWaitingGlobals() {
        engine.deliver(transaction(1).at(0).writes("a").local(HERE));
        engine.deliver(transaction(2).at(0).writes("g").global(HERE, PEER));
        engine.deliver(transaction(3).at(0).reads("a").writes("b").local(HERE));
        engine.checkInvariants();
        engine.receiveVote(commitVote(tid(2), PEER, 4));
        engine.checkInvariants();
        assertEquals(2, engine.snapshotCounter(), "the local that read a at snapshot 0 aborted, the others committed");
    }

    @Test
    void aHoleInTheNumberingBreaksTheInvariantsByName() {
        engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        CommitRequest skipping = transaction(2).at(0).writes("h").global(HERE, PEER);
        engine.restorePending(
                new PartitionEngine.Pending(skipping, 3, new Vote(tid(2), HERE, 3, null, false), new HashMap<>()));
        IllegalStateException broken = assertThrows(IllegalStateException.class, engine::checkInvariants);
        assertTrue(broken.getMessage().contains("is numbered 3, expected 2"), broken.getMessage());
    }

    /** Operators watch how long the head has waited (docs/architecture.md): the clock starts when a head appears. */
    @Test
    void theHeadsWaitIsTimedFromTheTickThatFirstSawIt() {
        assertEquals(-1, engine.headWaitingSinceMillis(), "nothing waits");
        engine.deliver(transaction(1).at(0).writes("a").global(HERE, PEER));
        engine.deliver(transaction(2).at(0).writes("b").global(HERE, PEER));
        engine.tick(500);
        engine.tick(900);
        assertEquals(500, engine.headWaitingSinceMillis(), "the same head keeps its start");

        engine.receiveVote(commitVote(tid(1), PEER, 4));
        assertEquals(2, engine.pendingCount() + engine.snapshotCounter(), "the first finished, the second waits");
        engine.tick(1_200);
        assertEquals(1_200, engine.headWaitingSinceMillis(), "a new head starts a new wait");

        engine.receiveVote(commitVote(tid(2), PEER, 5));
        engine.tick(1_300);
        assertEquals(-1, engine.headWaitingSinceMillis(), "the queue is empty");
    }

    @Test
    void tickDoesNothingWithoutAGlobalAtTheHead() {
        engine.deliver(transaction(1).at(0).writes("x").local(HERE));
        assertEquals(List.of(), engine.tick(0));
        assertEquals(List.of(), engine.tick(1_000_000));
    }

    @Test
    void abortRequestDeliveredBeforeTheCommitRequestLeavesATombstoneThatAnswersIt() {
        // This engine is the silent partition: partition 1 waited for our vote and asked us to abort.
        AbortReason requested = AbortReason.abortRequested(HERE);
        Vote tombstone = new Vote(tid(1), HERE, 0, requested, false);
        Outcome aborted = Outcome.aborted(tid(1), List.of(HERE, PEER), requested);

        List<Effect> onAbortRequest = engine.deliver(new AbortRequest(tid(1), List.of(HERE, PEER), PEER, 0));
        assertEquals(
                List.of(
                        new Effect.Reply(aborted),
                        new Effect.SendVote(tombstone, List.of(PEER)),
                        new Effect.ProposeDecision(new Decision(aborted, HERE), PEER)),
                onAbortRequest,
                "the requester learns the abort from its own log too");

        List<Effect> onCommit = engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));
        assertEquals(List.of(new Effect.Reply(aborted)), onCommit);
        assertEquals("partition 0 never received the transaction and aborted it", requested.toString());
        assertEquals(0, engine.pendingSnapshotCounter(), "the late commit request is never certified");
    }

    @Test
    void abortRequestDeliveredAfterTheCommitRequestOnlyResendsTheVote() {
        engine.deliver(transaction(1).at(0).writes("g").global(HERE, PEER));

        List<Effect> onAbortRequest = engine.deliver(new AbortRequest(tid(1), List.of(HERE, PEER), PEER, 0));

        assertEquals(List.of(new Effect.SendVote(commitVote(tid(1), HERE, 1), List.of(PEER))), onAbortRequest);
        assertEquals(1, engine.pendingCount());
    }

    // ---- the chain of cuts ----

    @Test
    void cutAdvancesRaiseTheFloorToTheirMaximumAndItIsPublished() {
        engine.deliver(new CutAdvance(HERE, List.of(3L, 5L)));
        engine.deliver(new CutAdvance(HERE, List.of(4L, 2L, 1L))); // a late, partly older proposal
        assertEquals(List.of(4L, 5L, 1L), engine.frontier().cutFloor());
        assertEquals(0, engine.pendingSnapshotCounter(), "a cut advance is no transaction");
    }

    // ---- reads ----

    @Test
    void readsBelowTheRetainedSnapshotsFailAsTooOld() {
        PartitionEngine shortMemory = new PartitionEngine(HERE, SETTINGS.withRetention(2, 100));
        for (int i = 1; i <= 5; i++) {
            shortMemory.deliver(transaction(i).at(i - 1).writes("x", "v" + i).local(HERE));
        }
        assertEquals(3, shortMemory.oldestReadableSnapshot());
        assertEquals(new VersionedValue(Bytes.utf8("v3"), 3), shortMemory.read(key("x"), 3));
        SnapshotTooOldException error =
                assertThrows(SnapshotTooOldException.class, () -> shortMemory.read(key("x"), 2));
        assertEquals(3, error.oldestReadable());
        assertThrows(IllegalArgumentException.class, () -> shortMemory.read(key("x"), 6), "above SC");
    }
}
