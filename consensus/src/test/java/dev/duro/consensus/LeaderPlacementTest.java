package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Where {@link LeaderPlacement} sends a leadership, and what it refuses to be given. */
class LeaderPlacementTest {
    private static final List<String> REPLICAS = List.of("a", "b", "c");

    @Test
    void theFirstListedReadyReplicaIsTheTarget() {
        assertEquals("b", LeaderPlacement.target(List.of("b", "c"), REPLICAS, "a", Set.of("b", "c")::contains));
        assertEquals("c", LeaderPlacement.target(List.of("c", "b"), REPLICAS, "a", Set.of("b", "c")::contains));
    }

    @Test
    void aLeaderListedFirstAmongTheReadyStays() {
        assertNull(LeaderPlacement.target(List.of("a", "b"), REPLICAS, "a", Set.of("b", "c")::contains));
        // b is listed first but down or behind: a, next on the list, keeps it rather than handing it to c
        assertNull(LeaderPlacement.target(List.of("b", "a", "c"), REPLICAS, "a", Set.of("c")::contains));
    }

    @Test
    void aReplicaThatIsNotReadyIsPassedOver() {
        assertEquals("c", LeaderPlacement.target(List.of("b", "c"), REPLICAS, "a", Set.of("c")::contains));
        assertNull(LeaderPlacement.target(List.of("b", "c"), REPLICAS, "a", Set.of()::contains));
    }

    @Test
    void listedNodesThatDoNotReplicateThePartitionAreSkipped() {
        assertEquals("c", LeaderPlacement.target(List.of("d", "c"), REPLICAS, "a", Set.of("b", "c", "d")::contains));
        assertNull(LeaderPlacement.target(List.of("d"), REPLICAS, "a", Set.of("b", "c", "d")::contains));
    }

    @Test
    void noPreferenceMovesNothing() {
        assertNull(LeaderPlacement.target(List.of(), REPLICAS, "a", Set.of("b", "c")::contains));
    }

    @Test
    void aListNamingAnUnknownOrRepeatedNodeIsRefused() {
        RaftTopology topology = new RaftTopology(
                "placement", Map.of("a", "127.0.0.1:1", "b", "127.0.0.1:2", "c", "127.0.0.1:3"), List.of(REPLICAS));
        try (LeaderPlacement placement = new LeaderPlacement("a", topology, null, topology::groupId)) {
            IllegalArgumentException unknown =
                    assertThrows(IllegalArgumentException.class, () -> placement.prefer(List.of("b", "z")));
            assertEquals("preferred leader z is no node of the cluster", unknown.getMessage());
            IllegalArgumentException twice =
                    assertThrows(IllegalArgumentException.class, () -> placement.prefer(List.of("b", "b")));
            assertEquals("preferred leader b is listed twice", twice.getMessage());
        }
    }
}
