package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.consensus.ProposalQueue.Lane;
import dev.duro.core.Outcome;
import dev.duro.core.OverloadedException;
import dev.duro.core.TxId;
import dev.duro.core.engine.AbortRequest;
import dev.duro.core.engine.CommitRequest;
import dev.duro.core.engine.CutAdvance;
import dev.duro.core.engine.Decision;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProposalQueueTest {
    private record Item(String name, int bytes) implements ProposalQueue.Sized {}

    private static List<String> names(List<Item> batch) {
        return batch.stream().map(Item::name).toList();
    }

    @Test
    void controlCommandsGoOutFirstThenDecisionsAndEachLaneKeepsItsOrder() {
        ProposalQueue<Item> queue = new ProposalQueue<>(0, 3, 1_000, 10_000);
        queue.add(new Item("c1", 10), Lane.COMMIT);
        queue.add(new Item("c2", 10), Lane.COMMIT);
        queue.add(new Item("c3", 10), Lane.COMMIT);
        queue.add(new Item("c4", 10), Lane.COMMIT);
        queue.add(new Item("decision", 10), Lane.DECISION);
        queue.add(new Item("cut", 10), Lane.CONTROL);
        assertEquals(1, queue.controlQueued());
        assertEquals(2, queue.urgentQueued());

        assertEquals(List.of("cut", "decision", "c1"), names(queue.nextBatch()));
        assertEquals(0, queue.urgentQueued());
        assertEquals(List.of("c2", "c3", "c4"), names(queue.nextBatch()));
        assertTrue(queue.isEmpty());
        assertEquals(List.of(), queue.nextBatch());
    }

    @Test
    void anEntryIsCutAtTheByteLimitButAlwaysTakesOneCommand() {
        ProposalQueue<Item> queue = new ProposalQueue<>(0, 100, 100, 10_000);
        queue.add(new Item("huge", 500), Lane.COMMIT);
        queue.add(new Item("a", 60), Lane.COMMIT);
        queue.add(new Item("b", 40), Lane.COMMIT);
        queue.add(new Item("u", 30), Lane.CONTROL);

        assertEquals(List.of("u"), names(queue.nextBatch())); // the huge one does not fit beside it
        assertEquals(List.of("huge"), names(queue.nextBatch())); // alone, it goes out whatever its size
        assertEquals(List.of("a", "b"), names(queue.nextBatch()));
        assertTrue(queue.isEmpty());
    }

    @Test
    void eachLaneHasItsOwnBoundSoABacklogOfCommitsNeverRefusesADecision() {
        ProposalQueue<Item> queue = new ProposalQueue<>(7, 100, 1_000, 100);
        queue.add(new Item("c1", 60), Lane.COMMIT);
        queue.add(new Item("c2", 40), Lane.COMMIT);
        OverloadedException full =
                assertThrows(OverloadedException.class, () -> queue.add(new Item("c3", 1), Lane.COMMIT));
        assertTrue(full.getMessage().contains("partition 7 has 100 bytes of commit requests"), full.getMessage());
        assertTrue(full.getMessage().contains("raft.queued-bytes-max 100"), full.getMessage());

        queue.add(new Item("d1", 100), Lane.DECISION);
        assertThrows(OverloadedException.class, () -> queue.add(new Item("d2", 1), Lane.DECISION));
        OverloadedException shared =
                assertThrows(OverloadedException.class, () -> queue.add(new Item("cut", 1), Lane.CONTROL));
        assertTrue(shared.getMessage().contains("100 bytes of decisions and cuts"), shared.getMessage());

        assertEquals(List.of("d1", "c1", "c2"), names(queue.nextBatch()));
        queue.add(new Item("c3", 100), Lane.COMMIT); // the bytes taken out are free again, in both lanes
        queue.add(new Item("d2", 100), Lane.DECISION);
        assertEquals(List.of("d2", "c3"), names(queue.drain()));
        assertTrue(queue.isEmpty());
        queue.add(new Item("c4", 100), Lane.COMMIT);
    }

    @Test
    void aHandedOffEntryIsQueuedWholeOrNotAtAll() {
        ProposalQueue<Item> queue = new ProposalQueue<>(3, 100, 1_000, 100);
        queue.add(new Item("c1", 60), Lane.COMMIT);
        Lane[] lanes = {Lane.DECISION, Lane.COMMIT, Lane.COMMIT};
        List<Item> entry = List.of(new Item("d1", 10), new Item("c2", 30), new Item("c3", 20));
        OverloadedException full = assertThrows(OverloadedException.class, () -> queue.addAll(entry, lanes));
        assertTrue(full.getMessage().contains("partition 3 has 60 bytes of commit requests"), full.getMessage());
        assertEquals(List.of("c1"), names(queue.nextBatch()), "neither d1 nor c2 stayed behind");

        queue.add(new Item("c4", 10), Lane.COMMIT);
        queue.addAll(entry, lanes);
        assertEquals(List.of("d1", "c4", "c2", "c3"), names(queue.nextBatch()), "each in its lane, in order");

        // An empty lane takes the whole entry, however large, as it takes one command.
        queue.addAll(List.of(new Item("c5", 90), new Item("c6", 90)), new Lane[] {Lane.COMMIT, Lane.COMMIT});
        assertThrows(OverloadedException.class, () -> queue.add(new Item("c7", 1), Lane.COMMIT));
        assertEquals(List.of("c5", "c6"), names(queue.drain()));
    }

    @Test
    void theCommitterPutsEachKindOfCommandInItsLane() {
        TxId tid = new TxId(1, 1);
        assertEquals(Lane.COMMIT, GroupCommitter.laneOf(new CommitRequest(tid, List.of(0), 5, List.of(), List.of())));
        assertEquals(
                Lane.DECISION,
                GroupCommitter.laneOf(new Decision(Outcome.committed(tid, List.of(0, 1), List.of(3L, 4L)), 1)));
        assertEquals(Lane.CONTROL, GroupCommitter.laneOf(new AbortRequest(tid, List.of(0, 1), 0, 4)));
        assertEquals(Lane.CONTROL, GroupCommitter.laneOf(new CutAdvance(0, List.of(3L, 4L))));
    }
}
