package dev.duro.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WarningGateTest {
    private final AtomicLong now = new AtomicLong(-5_000); // nanoTime may be negative
    private final WarningGate gate = new WarningGate(1_000, now::get);

    @Test
    void theFirstWarningPassesAndTheRestOfItsPeriodAreHeldBackAndCounted() {
        assertEquals(OptionalLong.of(0), gate.pass());
        now.addAndGet(10);
        assertTrue(gate.pass().isEmpty());
        now.addAndGet(989);
        assertTrue(gate.pass().isEmpty());

        now.addAndGet(1);
        assertEquals(OptionalLong.of(2), gate.pass(), "the next one, a period later, tells how many were held back");
        assertTrue(gate.pass().isEmpty());
    }

    @Test
    void aWarningAfterALongQuietPassesAtOnce() {
        gate.pass();
        now.addAndGet(1_000_000);
        assertEquals(OptionalLong.of(0), gate.pass());
    }
}
