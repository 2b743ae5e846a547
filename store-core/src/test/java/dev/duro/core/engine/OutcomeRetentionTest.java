package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.duro.core.Bytes;
import dev.duro.core.Limits;
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
     * Both replicas deliver the same log; only the moment partition 1's vote arrives differs. Before the fix the
     * outcomes were kept in the order they were decided, so the replicas forgot different transactions: the early
     * one forgot the global transaction and certified its duplicate again (a new number, PSC 2), the late one
     * still knew it and only answered (PSC 1).
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

        for (PartitionEngine engine : List.of(early, late)) {
            assertNotNull(engine.outcomeOf(GLOBAL));
            engine.deliver(failingLocal(SECOND_LOCAL)); // a third outcome: the oldest delivered one goes
            assertNull(engine.outcomeOf(GLOBAL));
            assertNotNull(engine.outcomeOf(FIRST_LOCAL));
            engine.deliver(GLOBAL_REQUEST); // a duplicate, too late to be recognised
        }

        // Both certified the duplicate again (what a duplicate beyond the retention gets), identically.
        assertEquals(2, early.pendingSnapshotCounter());
        assertEquals(2, late.pendingSnapshotCounter());
        assertEquals(early.pendingCount(), late.pendingCount());
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

        assertNull(restored.outcomeOf(GLOBAL), "the global transaction was delivered first, so it goes first");
        assertNotNull(restored.outcomeOf(FIRST_LOCAL));
        assertNotNull(restored.outcomeOf(SECOND_LOCAL));
    }
}
