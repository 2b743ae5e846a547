package dev.duro.core.sim;

/**
 * Whether faults are being injected. During the workload everything can go wrong; afterwards faults stop so
 * the run can show that the system converges once messages flow again.
 */
final class Faults {
    private final SimulationConfig config;
    private boolean active = true;

    Faults(SimulationConfig config) {
        this.config = config;
    }

    boolean active() {
        return active;
    }

    void stop() {
        active = false;
    }

    boolean dropMessage(Dice dice) {
        return active && dice.chance(config.messageDropRate());
    }

    boolean duplicateMessage(Dice dice) {
        return active && dice.chance(config.messageDuplicateRate());
    }
}
