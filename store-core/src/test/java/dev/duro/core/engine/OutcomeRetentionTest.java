package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which outcomes a replica still remembers decides how it treats a duplicate commit request or a late abort
 * request, so it must be the same at every replica of a partition: a function of the log, not of when votes
 * happened to arrive.
 */
class OutcomeRetentionTest {
    private static final Bytes K = Bytes.utf8("k");
    private static final TxId GLOBAL = new TxId(1, 1);
    private static final TxId FIRST_LOCAL = new TxId(2, 1);
    private static final TxId SECOND_LOCAL = new TxId(3, 1);

    /** Reads k here and writes only at partition 1, so a second certification here would pass. */
    private static final CommitRequest GLOBAL_REQUEST =
            new CommitRequest(GLOBAL, List.of(0, 1), 0, List.of(K), List.of());

    private static final Vote OTHER_PARTITION_COMMITS = new Vote(GLOBAL, 1, 7, null, false);

    /** A local transaction that fails certification, so it is decided the moment it is delivered. */
    private static CommitRequest failingLocal(TxId tid) {
        return new CommitRequest(tid, List.of(0), 99, List.of(), List.of(Write.put(K, Bytes.utf8("v"))));
    }

    private static PartitionEngine replica() {
        PartitionEngine engine = new PartitionEngine(0, EngineSettings.DEFAULT.withRetention(1_000, 2));
        engine.setDesignatedVoter(true);
        return engine;
    }

    /**
     * Both replicas deliver the same log; only the moment partition 1's vote arrives differs. Outcomes used to be
     * kept in the order they were decided, so the replicas forgot different transactions and one certified a late
     * duplicate of the global again. Now the places follow delivery order, a global stays pinned until every
     * participant's decision is logged here, and a duplicate of a forgotten id is answered as unknown at both,
     * never certified.
     */
    @Test
    void replicasForgetTheSameOutcomesWhateverTheVoteTiming() {
        PartitionEngine early = replica();
        early.deliver(GLOBAL_REQUEST);
        early.receiveVote(OTHER_PARTITION_COMMITS);
        early.deliver(failingLocal(FIRST_LOCAL));

        PartitionEngine late = replica();
        late.deliver(GLOBAL_REQUEST);
        late.deliver(failingLocal(FIRST_LOCAL));
        late.receiveVote(OTHER_PARTITION_COMMITS);

        Outcome committed = Outcome.committed(GLOBAL, List.of(0, 1), List.of(1L, 7L));
        for (PartitionEngine engine : List.of(early, late)) {
            engine.deliver(failingLocal(SECOND_LOCAL)); // a third outcome: the global's place goes, but it is pinned
            assertEquals(committed, engine.outcomeOf(GLOBAL), "its decision is not logged yet");
            assertEquals(List.of(new Effect.Reply(committed)), engine.deliver(GLOBAL_REQUEST), "a duplicate");

            engine.deliver(new Decision(committed, 0));
            assertEquals(committed, engine.outcomeOf(GLOBAL), "partition 1 may still need our vote");
            engine.deliver(new Decision(committed, 1));
            assertNull(engine.outcomeOf(GLOBAL), "every participant logged the decision");
            assertEquals(0, engine.forgottenUpTo(), "PSC was 0 when the global was delivered");
            assertEquals(
                    List.of(new Effect.OutcomeUnknown(GLOBAL)),
                    engine.deliver(GLOBAL_REQUEST),
                    "read at 0 <= forgotten-up-to: it may have committed, so it is not certified again");
            assertNotNull(engine.outcomeOf(FIRST_LOCAL));
        }
        assertEquals(1, early.pendingSnapshotCounter());
        assertEquals(1, late.pendingSnapshotCounter());
        for (TxId tid : List.of(GLOBAL, FIRST_LOCAL, SECOND_LOCAL)) {
            assertEquals(early.outcomeOf(tid), late.outcomeOf(tid), tid::toString);
        }
    }

    /** A transaction still pending keeps its place among the retained ones and survives a snapshot. */
    @Test
    void retentionOrderSurvivesAnEngineSnapshot() {
        PartitionEngine engine = replica();
        engine.deliver(GLOBAL_REQUEST); // pending: waits for partition 1
        engine.deliver(failingLocal(FIRST_LOCAL));
        EngineStateCodec codec = new EngineStateCodec(Limits.DEFAULT);

        PartitionEngine restored = codec.read(codec.write(engine), 0, engine.settings());
        restored.receiveVote(OTHER_PARTITION_COMMITS);
        restored.deliver(failingLocal(SECOND_LOCAL));
        PartitionEngine again = codec.read(codec.write(restored), 0, engine.settings());
        again.deliver(new Decision(restored.outcomeOf(GLOBAL), 0));
        again.deliver(new Decision(restored.outcomeOf(GLOBAL), 1));

        assertNull(again.outcomeOf(GLOBAL), "the global transaction was delivered first, so it goes first");
        assertNotNull(again.outcomeOf(FIRST_LOCAL));
        assertNotNull(again.outcomeOf(SECOND_LOCAL));
    }
}
