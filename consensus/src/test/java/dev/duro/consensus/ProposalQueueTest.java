package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.OverloadedException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProposalQueueTest {
    private record Item(String name, int bytes) implements ProposalQueue.Sized {}

    private static List<String> names(List<Item> batch) {
        return batch.stream().map(Item::name).toList();
    }

    @Test
    void urgentCommandsGoOutFirstAndEachLaneKeepsItsOrder() {
        ProposalQueue<Item> queue = new ProposalQueue<>(0, 3, 1_000, 10_000);
        queue.add(new Item("c1", 10), false);
        queue.add(new Item("c2", 10), false);
        queue.add(new Item("c3", 10), false);
        queue.add(new Item("c4", 10), false);
        queue.add(new Item("decision", 10), true);
        queue.add(new Item("cut", 10), true);

        assertEquals(List.of("decision", "cut", "c1"), names(queue.nextBatch()));
        assertEquals(List.of("c2", "c3", "c4"), names(queue.nextBatch()));
        assertTrue(queue.isEmpty());
        assertEquals(List.of(), queue.nextBatch());
    }

    @Test
    void anEntryIsCutAtTheByteLimitButAlwaysTakesOneCommand() {
        ProposalQueue<Item> queue = new ProposalQueue<>(0, 100, 100, 10_000);
        queue.add(new Item("huge", 500), false);
        queue.add(new Item("a", 60), false);
        queue.add(new Item("b", 40), false);
        queue.add(new Item("u", 30), true);

        assertEquals(List.of("u"), names(queue.nextBatch())); // the huge one does not fit beside it
        assertEquals(List.of("huge"), names(queue.nextBatch())); // alone, it goes out whatever its size
        assertEquals(List.of("a", "b"), names(queue.nextBatch()));
        assertTrue(queue.isEmpty());
    }

    @Test
    void eachLaneHasItsOwnBoundSoABacklogOfCommitsNeverRefusesADecision() {
        ProposalQueue<Item> queue = new ProposalQueue<>(7, 100, 1_000, 100);
        queue.add(new Item("c1", 60), false);
        queue.add(new Item("c2", 40), false);
        OverloadedException full = assertThrows(OverloadedException.class, () -> queue.add(new Item("c3", 1), false));
        assertTrue(full.getMessage().contains("partition 7 has 100 bytes of commit requests"), full.getMessage());
        assertTrue(full.getMessage().contains("raft.queued-bytes-max 100"), full.getMessage());

        queue.add(new Item("d1", 100), true);
        assertThrows(OverloadedException.class, () -> queue.add(new Item("d2", 1), true));

        assertEquals(List.of("d1", "c1", "c2"), names(queue.nextBatch()));
        queue.add(new Item("c3", 100), false); // the bytes taken out are free again, in both lanes
        queue.add(new Item("d2", 100), true);
        assertEquals(List.of("d2", "c3"), names(queue.drain()));
        assertTrue(queue.isEmpty());
        queue.add(new Item("c4", 100), false);
    }

    @Test
    void aHandedOffEntryIsQueuedWholeOrNotAtAll() {
        ProposalQueue<Item> queue = new ProposalQueue<>(3, 100, 1_000, 100);
        queue.add(new Item("c1", 60), false);
        boolean[] lanes = {true, false, false};
        List<Item> entry = List.of(new Item("d1", 10), new Item("c2", 30), new Item("c3", 20));
        OverloadedException full = assertThrows(OverloadedException.class, () -> queue.addAll(entry, lanes));
        assertTrue(full.getMessage().contains("partition 3 has 60 bytes of commit requests"), full.getMessage());
        assertEquals(List.of("c1"), names(queue.nextBatch()), "neither d1 nor c2 stayed behind");

        queue.add(new Item("c4", 10), false);
        queue.addAll(entry, lanes);
        assertEquals(List.of("d1", "c4", "c2", "c3"), names(queue.nextBatch()), "each in its lane, in order");

        // An empty lane takes the whole entry, however large, as it takes one command.
        queue.addAll(List.of(new Item("c5", 90), new Item("c6", 90)), new boolean[] {false, false});
        assertThrows(OverloadedException.class, () -> queue.add(new Item("c7", 1), false));
        assertEquals(List.of("c5", "c6"), names(queue.drain()));
    }
}
