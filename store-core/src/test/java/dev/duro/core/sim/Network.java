package dev.duro.core.sim;

/**
 * Point-to-point messages between simulated processes. Each message arrives after its own random delay, so
 * messages overtake each other; while faults are on, some are lost and some arrive twice. Whoever receives a
 * message decides at arrival whether it can (a crashed replica cannot).
 */
final class Network {
    private final Scheduler scheduler;
    private final Dice dice;
    private final Faults faults;
    private final Counters counters;

    Network(Scheduler scheduler, Dice dice, Faults faults, Counters counters) {
        this.scheduler = scheduler;
        this.dice = dice;
        this.faults = faults;
        this.counters = counters;
    }

    /** A message that may be lost, duplicated or delayed (votes, replies). */
    void send(Runnable arrival) {
        counters.increment("messages");
        if (faults.dropMessage(dice)) {
            counters.increment("messages dropped");
            return;
        }
        deliverMaybeTwice(arrival);
    }

    /** A message that may be duplicated or delayed but is never lost (frontier gossip over a stream). */
    void sendWithoutLoss(Runnable arrival) {
        deliverMaybeTwice(arrival);
    }

    private void deliverMaybeTwice(Runnable arrival) {
        scheduler.after(delay(), arrival);
        if (faults.duplicateMessage(dice)) {
            counters.increment("messages duplicated");
            scheduler.after(delay(), arrival);
        }
    }

    private long delay() {
        if (!faults.active()) {
            return dice.millis(1, 4);
        }
        return dice.chance(0.03) ? dice.millis(30, 250) : dice.millis(1, 12);
    }
}
