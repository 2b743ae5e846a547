package dev.duro.bench.compare;

import java.util.Arrays;

/** The median of repeated measurements and their spread (min–max). */
public record Spread(double median, double min, double max) {
    public Spread {
        if (!(min <= median && median <= max)) {
            throw new IllegalArgumentException("not min <= median <= max: " + min + ", " + median + ", " + max);
        }
    }

    /** Median (the mean of the two middle values for an even count), min and max of {@code values}. */
    public static Spread of(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[sorted.length - 1]);
    }

    /**
     * The index of the measurement that is the median (for an even count, the lower of the two middle ones), so
     * that its other figures (latencies) can be reported as "the median run's".
     */
    public static int medianIndex(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        return order[(values.length - 1) / 2];
    }

    /** This spread divided by {@code baseline} (normalisation). */
    public Spread dividedBy(double baseline) {
        if (!(baseline > 0)) {
            throw new IllegalArgumentException("baseline must be positive: " + baseline);
        }
        return new Spread(median / baseline, min / baseline, max / baseline);
    }
}
