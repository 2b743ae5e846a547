package dev.duro.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Lets one warning through per period and counts the ones it holds back, so that a peer sending a stream of bad
 * frames costs a line now and then rather than one per frame.
 */
final class WarningGate {
    private final long periodNanos;
    private final LongSupplier nanoClock;

    @GuardedBy("this")
    private boolean opened;

    @GuardedBy("this")
    private long nextOpenNanos;

    @GuardedBy("this")
    private long held;

    WarningGate(long periodNanos, LongSupplier nanoClock) {
        this.periodNanos = periodNanos;
        this.nanoClock = nanoClock;
    }

    /**
     * Whether a warning may be written now: if so, how many were held back since the last one written (to be
     * mentioned in it); if not, empty, and this one is counted.
     */
    synchronized OptionalLong pass() {
        long now = nanoClock.getAsLong();
        if (opened && now - nextOpenNanos < 0) {
            held++;
            return OptionalLong.empty();
        }
        opened = true;
        nextOpenNanos = now + periodNanos;
        long heldBack = held;
        held = 0;
        return OptionalLong.of(heldBack);
    }
}
