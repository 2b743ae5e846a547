package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LockHoldTest {
    /** Keeps what the test allocates reachable until its collection, so that the collection has work to do. */
    private static volatile List<long[]> retained;

    @Test
    void aCollectionInsideAHoldIsCountedAsPausedAndNoMoreThanTheHoldLasted() {
        LockHold.Started started = LockHold.start();
        LockHold hold = started.end();
        for (int attempt = 0; attempt < 20 && hold.pauseMillis() == 0; attempt++) {
            started = LockHold.start();
            List<long[]> garbage = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                garbage.add(new long[1_024]);
            }
            retained = garbage;
            System.gc(); // a full collection: the JVM stands still for at least its marking of 16 MB
            retained = null;
            hold = started.end();
        }
        assertTrue(hold.pauseMillis() > 0, "a collection paused the JVM inside the hold: " + hold);
        assertTrue(
                hold.pauseMillis() <= hold.nanos() / 1_000_000 + 1, "a pause inside the hold is part of it: " + hold);
        assertTrue(hold.toString().contains(hold.pauseMillis() + " ms paused by collections"), hold.toString());
    }
}
