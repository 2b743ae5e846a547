package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.wire.HostPort;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NodeHealthTest {
    private static final HostPort A = new HostPort("10.0.0.1", 7100);
    private static final HostPort B = new HostPort("10.0.0.2", 7100);
    private static final HostPort C = new HostPort("10.0.0.3", 7100);
    private static final List<HostPort> NODES = List.of(A, B, C);

    private final AtomicLong now = new AtomicLong(1_000);
    private final NodeHealth health = new NodeHealth(now::get);

    @Test
    void withNoFailuresTheOrderIsARotationFromTheFirstChoice() {
        assertEquals(List.of(A, B, C), health.order(NODES, 0));
        assertEquals(List.of(B, C, A), health.order(NODES, 1));
        assertEquals(List.of(C, A, B), health.order(NODES, 5));
        assertEquals(List.of(C, A, B), health.order(NODES, -1));
    }

    @Test
    void aNodeThatFailedIsTriedLastUntilItsTimeIsUp() {
        health.failed(B);
        assertEquals(List.of(C, A, B), health.order(NODES, 1));
        assertEquals(List.of(A, C, B), health.order(NODES, 0));

        now.addAndGet(NodeHealth.AVOID_NANOS - 1);
        assertTrue(health.avoided(B));
        now.addAndGet(1);
        assertFalse(health.avoided(B));
        assertEquals(List.of(B, C, A), health.order(NODES, 1));
    }

    @Test
    void aNodeThatServesIsNoLongerAvoided() {
        health.failed(A);
        health.failed(C);
        assertEquals(List.of(B, C, A), health.order(NODES, 2), "failed nodes keep their rotation order at the end");
        health.served(C);
        assertEquals(List.of(C, B, A), health.order(NODES, 2));
    }

    @Test
    void everyNodeIsStillTriedWhenAllFailed() {
        NODES.forEach(health::failed);
        assertEquals(List.of(B, C, A), health.order(NODES, 1));
    }
}
