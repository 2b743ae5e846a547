package dev.duro.core.sim;

import java.util.List;
import java.util.Random;

/** The simulation's only source of randomness: one seeded {@link Random}, so a seed replays exactly. */
final class Dice {
    private final Random random;

    Dice(long seed) {
        this.random = new Random(seed);
    }

    /** A uniform integer in {@code [low, high]}. */
    int between(int low, int high) {
        return low + random.nextInt(high - low + 1);
    }

    /** A uniform long in {@code [low, high]}, for millisecond delays. */
    long millis(long low, long high) {
        return low + random.nextInt((int) (high - low + 1));
    }

    boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    double fraction() {
        return random.nextDouble();
    }

    <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    <T> void shuffle(List<T> list) {
        java.util.Collections.shuffle(list, random);
    }
}
