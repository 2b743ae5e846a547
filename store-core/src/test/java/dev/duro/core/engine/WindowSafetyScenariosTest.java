package dev.duro.core.engine;

import static dev.duro.core.engine.Transactions.tid;
import static dev.duro.core.engine.Transactions.transaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.AbortReason;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.snapshot.Frontier;
import dev.duro.core.snapshot.SnapshotVectorTracker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The five ways a bounded retention window used to change a decision (docs/window-safety.md), each as a scenario
 * on engines with a window of two outcomes. Partition 0 and partition 1 each have their replicas here as plain
 * engines fed the same log by hand.
 */
class WindowSafetyScenariosTest {
    private static final int P0 = 0;
    private static final int P1 = 1;
    private static final int WINDOW = 2;
    private static final EngineSettings SETTINGS =
            EngineSettings.DEFAULT.withRetention(1_000, WINDOW).withTimeouts(50, 1_000);
    private static final EngineStateCodec CODEC = new EngineStateCodec(Limits.DEFAULT);

    private static PartitionEngine replica(int partition, boolean voter) {
        PartitionEngine engine = new PartitionEngine(partition, SETTINGS);
        engine.setDesignatedVoter(voter);
        return engine;
    }

    /** Local transactions at {@code partition} that read nothing and write their own key: they always commit. */
    private static List<Command> filler(int partition, long firstSequence, int count, long snapshot) {
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            commands.add(transaction(firstSequence + i)
                    .at(snapshot + i)
                    .writes("filler" + (firstSequence + i))
                    .local(partition));
        }
        return commands;
    }

    private static <T extends Effect> List<T> only(Class<T> kind, List<Effect> effects) {
        return effects.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    // ---- path 1: a replaying replica decided a global differently from its peers ----

    /**
     * Before: a replica of partition 0 replaying its log lacked partition 1's vote on T; partition 1 had forgotten
     * T and never answered, so after the abort-request delay the replica proposed an abort request into partition
     * 1's log, which tombstoned T there and voted abort. The replica aborted T while its peers had committed it,
     * with equal counters and a different content digest. Now partition 0's log holds the decision and the
     * replaying replica finishes T from it, asking nobody.
     */
    @Test
    void aReplayingReplicaFinishesAGlobalFromItsOwnLog() {
        PartitionEngine live = replica(P0, true);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1);
        List<Command> log = new ArrayList<>();
        log.add(global);
        live.deliver(global);
        List<Effect> onVote = live.receiveVote(new Vote(global.tid(), P1, 1, null, false));
        List<Effect.ProposeDecision> proposed = only(Effect.ProposeDecision.class, onVote);
        assertEquals(1, proposed.size(), "the voter logs the decision it reached: " + onVote);
        log.add(proposed.get(0).decision());
        log.addAll(filler(P0, 10, 5, 1));
        for (Command command : log.subList(1, log.size())) {
            live.deliver(command);
        }

        PartitionEngine replaying = replica(P0, false);
        List<Effect> effects = new ArrayList<>();
        for (Command command : log) {
            effects.addAll(replaying.deliver(command));
        }
        for (long now = 0; now < 10_000; now += 50) {
            effects.addAll(replaying.tick(now)); // however long it waits, nobody is asked to abort T
        }

        assertEquals(live.snapshotCounter(), replaying.snapshotCounter());
        assertEquals(EngineStateCodec.contentDigest(live), EngineStateCodec.contentDigest(replaying));
        assertEquals(0, replaying.pendingCount());
        assertTrue(only(Effect.ProposeAbort.class, effects).isEmpty(), effects::toString);
    }

    /**
     * The other half of path 1: partition 1 delivered T long ago, every participant logged the decision, and
     * partition 1 forgot it. A late abort request (from a replica that lagged when it proposed it) must not
     * tombstone T there: that would contradict the commit vote partition 1 gave.
     */
    @Test
    void aLateAbortRequestForAnIdThePartitionForgotLeavesNoTombstone() {
        PartitionEngine p1 = replica(P1, true);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1);
        p1.deliver(global);
        p1.receiveVote(new Vote(global.tid(), P0, 1, null, false));
        Outcome committed = Outcome.committed(global.tid(), List.of(P0, P1), List.of(1L, 1L));
        p1.deliver(new Decision(committed, P1));
        p1.deliver(new Decision(committed, P0));
        for (Command command : filler(P1, 10, 3 * WINDOW, 1)) {
            p1.deliver(command);
        }
        assertNull(p1.outcomeOf(global.tid()), "forgotten");
        long psc = p1.pendingSnapshotCounter();

        List<Effect> onAbortRequest = p1.deliver(new AbortRequest(global.tid(), List.of(P0, P1), P0, 0));
        List<Effect> onVoteRequest = p1.receiveVote(new Vote(global.tid(), P0, 1, null, true));

        assertEquals(List.of(), onAbortRequest, "no tombstone, no abort vote");
        assertEquals(List.of(), onVoteRequest, "it no longer knows its vote, so it sends none");
        assertNull(p1.outcomeOf(global.tid()));
        assertEquals(psc, p1.pendingSnapshotCounter());
    }

    /** A participant keeps a global (pinned beyond the window) until every participant's decision is in its log. */
    @Test
    void aGlobalIsKeptUntilEveryParticipantLoggedItsDecision() {
        PartitionEngine p1 = replica(P1, true);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1);
        p1.deliver(global);
        p1.receiveVote(new Vote(global.tid(), P0, 1, null, false));
        Outcome committed = Outcome.committed(global.tid(), List.of(P0, P1), List.of(1L, 1L));
        List<Effect> onOwnDecision = p1.deliver(new Decision(committed, P1));
        assertEquals(
                List.of(new Effect.ProposeDecision(new Decision(committed, P1), P0)),
                onOwnDecision,
                "the voter copies its logged decision into the other participant's log");
        for (Command command : filler(P1, 10, 3 * WINDOW, 1)) {
            p1.deliver(command);
        }
        assertEquals(committed, p1.outcomeOf(global.tid()), "partition 0 may still need our vote");
        assertEquals(1, p1.pinnedCount());
        assertEquals(
                List.of(new Effect.SendVote(new Vote(global.tid(), P1, 1, null, false), List.of(P0))),
                p1.receiveVote(new Vote(global.tid(), P0, 1, null, true)),
                "it still answers for its vote");
        p1.tick(0);
        assertEquals(
                List.of(new Effect.SendVote(new Vote(global.tid(), P1, 1, null, false, true), List.of(P0))),
                p1.tick(1_000),
                "and asks partition 0 for a copy of its decision");

        p1.deliver(new Decision(committed, P0));

        assertNull(p1.outcomeOf(global.tid()));
        assertEquals(0, p1.pinnedCount());
    }

    // ---- path 2: a commit retried after its outcome was forgotten was certified again ----

    /**
     * Before: the retried commit was certified afresh; its own earlier write made it abort (a false abort) and the
     * client ran the body again under a new id, applying the first, committed attempt twice. Now every replica
     * answers it as unknown at the same point of the log, and certifies nothing.
     */
    @Test
    void aCommitRetriedAfterItsOutcomeWasForgottenIsAnsweredUnknownNeverCertifiedAgain() {
        PartitionEngine engine = replica(P0, true);
        CommitRequest first = transaction(1).at(0).reads("x").writes("x").local(P0);
        assertEquals(
                List.of(new Effect.Reply(Outcome.committed(first.tid(), List.of(P0), List.of(1L)))),
                engine.deliver(first));
        List<Effect> meanwhile = new ArrayList<>();
        for (Command command : filler(P0, 10, 3 * WINDOW, 1)) {
            meanwhile.addAll(engine.deliver(command));
        }
        long psc = engine.pendingSnapshotCounter();
        long digest = EngineStateCodec.contentDigest(engine);

        List<Effect> onRetry = engine.deliver(first);

        assertEquals(List.of(new Effect.OutcomeUnknown(first.tid())), onRetry);
        assertEquals(psc, engine.pendingSnapshotCounter());
        assertEquals(digest, EngineStateCodec.contentDigest(engine));
    }

    /**
     * A transaction that read long ago but was never delivered is still certified when no forgotten id could be
     * it: the forgotten ids are kept in bloom filters, which have no false negatives.
     */
    @Test
    void aFreshTransactionWithAnOldSnapshotIsStillCertified() {
        PartitionEngine engine = replica(P0, true);
        for (Command command : filler(P0, 10, 4 * WINDOW, 0)) {
            engine.deliver(command);
        }
        assertTrue(engine.forgottenUpTo() >= 1);

        List<Effect> effects =
                engine.deliver(transaction(99).at(1).reads("unrelated").local(P0));

        assertEquals(1, effects.size());
        assertTrue(
                effects.get(0) instanceof Effect.Reply reply && reply.outcome().committed(), effects::toString);
    }

    // ---- path 3: frontiers split a global across a cut ----

    /**
     * Before: a frontier listed only the retained global commits but claimed coverage from 0, so a fresh tracker
     * included T at partition 0 (long forgotten there) and excluded it at partition 1, which had not finished it.
     * Now partition 0's frontier carries its dependency on partition 1, whatever it retains.
     */
    @Test
    void aFrontierNamesItsDependenciesWhateverThePartitionStillRetains() {
        PartitionEngine p0 = replica(P0, true);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1);
        p0.deliver(global);
        p0.receiveVote(new Vote(global.tid(), P1, 7, null, false));
        for (Command command : filler(P0, 10, 3 * WINDOW, 1)) {
            p0.deliver(command);
        }
        Frontier frontier = p0.frontier();
        assertEquals(7, frontier.dependencyOn(P1));

        SnapshotVectorTracker fresh = new SnapshotVectorTracker(2);
        fresh.update(frontier);
        fresh.update(new Frontier(P1, 6, List.of())); // partition 1 has not finished T (its number 7) yet

        assertEquals(0, fresh.cutAt(P0), "T must not be included at partition 0 only");
        fresh.update(new Frontier(P1, 7, List.of(1L, 0L)));
        assertEquals(p0.snapshotCounter(), fresh.cutAt(P0));
        assertEquals(7, fresh.cutAt(P1));
    }

    // ---- path 4: a transaction of unknown outcome was changed and committed again under the same id ----

    /**
     * The client freezes a committing transaction (store-client's FrozenTransactionTest). A partition, for its
     * part, answers a repeated id from what it retains, whatever the repeat carries, and as unknown once it may
     * have forgotten it: never a fresh certification under an id it already decided.
     */
    @Test
    void aRepeatedIdWithADifferentContentIsAnsweredFromTheFirstOutcomeOrAsUnknown() {
        PartitionEngine engine = replica(P0, true);
        CommitRequest first = transaction(1).at(0).writes("a").local(P0);
        Outcome committed = Outcome.committed(first.tid(), List.of(P0), List.of(1L));
        engine.deliver(first);
        CommitRequest changed = transaction(1).at(1).writes("b").global(P0, P1);

        assertEquals(List.of(new Effect.Reply(committed)), engine.deliver(changed));
        for (Command command : filler(P0, 10, 3 * WINDOW, 1)) {
            engine.deliver(command);
        }
        assertEquals(List.of(new Effect.OutcomeUnknown(first.tid())), engine.deliver(changed));
        assertEquals(1 + 3 * WINDOW, engine.pendingSnapshotCounter());
    }

    // ---- path 5: replicas disagreed on which outcomes are retained ----

    /**
     * Before: a transaction still pending at a slow replica when its place left the window was ignored there as a
     * duplicate, while a replica that had finished it certified the duplicate again: their counters diverged.
     * Here a local transaction waits behind a global at the slow replica only; both replicas then deliver the same
     * log, including a duplicate of the local one, and stay identical.
     */
    @Test
    void replicasAgreeOnADuplicateOfATransactionStillPendingAtOneOfThem() {
        PartitionEngine fast = replica(P0, true);
        PartitionEngine slow = replica(P0, false);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1);
        CommitRequest local = transaction(2).at(0).reads("r").local(P0); // re-certified, it would commit again
        for (PartitionEngine engine : List.of(fast, slow)) {
            engine.deliver(global);
            engine.deliver(local);
        }
        fast.receiveVote(new Vote(global.tid(), P1, 4, null, false)); // the slow replica lacks it for now
        assertEquals(0, fast.pendingCount());
        assertEquals(2, slow.pendingCount());

        List<Command> rest = new ArrayList<>(filler(P0, 10, 3 * WINDOW, 2));
        rest.add(local); // a duplicate, after the local transaction's place left the window
        List<List<Effect>> fastEffects = new ArrayList<>();
        List<List<Effect>> slowEffects = new ArrayList<>();
        for (Command command : rest) {
            fastEffects.add(fast.deliver(command));
            slowEffects.add(slow.deliver(command));
        }
        slow.receiveVote(new Vote(global.tid(), P1, 4, null, false));

        assertEquals(List.of(new Effect.OutcomeUnknown(local.tid())), fastEffects.get(fastEffects.size() - 1));
        assertEquals(List.of(new Effect.OutcomeUnknown(local.tid())), slowEffects.get(slowEffects.size() - 1));
        assertEquals(fast.pendingSnapshotCounter(), slow.pendingSnapshotCounter());
        assertEquals(fast.snapshotCounter(), slow.snapshotCounter());
        assertEquals(EngineStateCodec.contentDigest(fast), EngineStateCodec.contentDigest(slow));
        PartitionEngine slowRestored = CODEC.read(CODEC.write(slow), P0, SETTINGS);
        PartitionEngine fastRestored = CODEC.read(CODEC.write(fast), P0, SETTINGS);
        assertEquals(slowRestored.outcomeOf(global.tid()), fastRestored.outcomeOf(global.tid()));
    }

    // ---- invariants that stop a replica ----

    @Test
    void aLoggedDecisionThatContradictsTheOutcomeStopsTheReplica() {
        PartitionEngine engine = replica(P0, true);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1);
        engine.deliver(global);
        engine.receiveVote(new Vote(global.tid(), P1, 3, null, false));
        Outcome aborted = Outcome.aborted(global.tid(), List.of(P0, P1), AbortReason.abortRequested(P1));

        IllegalStateException error =
                assertThrows(IllegalStateException.class, () -> engine.deliver(new Decision(aborted, P1)));
        assertTrue(error.getMessage().contains("decided differently"), error.getMessage());
    }

    @Test
    void aPartitionThatVotesTwiceDifferentlyStopsTheReplica() {
        PartitionEngine engine = replica(P0, true);
        CommitRequest global = transaction(1).at(0).writes("g").global(P0, P1, 2);
        engine.deliver(global);
        engine.receiveVote(new Vote(global.tid(), P1, 3, null, false));
        TxId tid = tid(1);

        assertThrows(
                IllegalStateException.class,
                () -> engine.receiveVote(new Vote(tid, P1, 0, AbortReason.abortRequested(P1), false)));
    }
}
