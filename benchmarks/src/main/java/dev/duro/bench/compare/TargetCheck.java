package dev.duro.bench.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The performance targets of issue 5, checked against measured medians: S-DUR with two partitions beats DUR with
 * as many nodes by 1.8× when every transaction is local; it stays ahead of DUR up to at least 50% global
 * transactions (the paper's break-even lies between 40% and 60%); and it runs ten times etcd's throughput.
 */
public record TargetCheck(String target, Status status, String measured) {
    public enum Status {
        MET,
        MISSED,
        NOT_MEASURED;

        public String label() {
            return switch (this) {
                case MET -> "met";
                case MISSED -> "missed";
                case NOT_MEASURED -> "not measured";
            };
        }
    }

    public static final String DURO = "duro-2x3";
    public static final String DUR = "dur-1x6";
    public static final String ETCD = "etcd-3";

    public static List<TargetCheck> evaluate(CompareResults results) {
        List<TargetCheck> checks = new ArrayList<>();
        checks.add(ratioAtLeast(results, DURO + " vs " + DUR + " at 0% global >= 1.8x", DURO, DUR, 1.8));
        checks.add(breakEven(results));
        checks.add(ratioAtLeast(results, DURO + " vs " + ETCD + " at 0% global >= 10x", DURO, ETCD, 10));
        return checks;
    }

    private static TargetCheck ratioAtLeast(
            CompareResults results, String target, String system, String reference, double wanted) {
        Optional<Double> ratio = ratio(results, system, reference, 0);
        if (ratio.isEmpty()) {
            return new TargetCheck(target, Status.NOT_MEASURED, "needs " + system + " and " + reference + " at 0%");
        }
        return new TargetCheck(
                target,
                ratio.get() >= wanted ? Status.MET : Status.MISSED,
                String.format(Locale.ROOT, "%.2fx", ratio.get()));
    }

    static Optional<Double> ratio(CompareResults results, String system, String reference, int globalPercent) {
        Optional<Double> a = results.medianThroughput(system, globalPercent);
        Optional<Double> b = results.medianThroughput(reference, globalPercent);
        if (a.isEmpty() || b.isEmpty() || b.get() <= 0) {
            return Optional.empty();
        }
        return Optional.of(a.get() / b.get());
    }

    /**
     * The percentage of global transactions where S-DUR's throughput falls to DUR's: the first crossing of the
     * ratio below 1 between measured percentages, interpolated linearly. Met when it lies at 50% or beyond.
     */
    private static TargetCheck breakEven(CompareResults results) {
        String target = "break-even of " + DURO + " with " + DUR + " at >= 50% global";
        List<Integer> measured = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (int global : results.globals().stream().sorted().toList()) {
            ratio(results, DURO, DUR, global).ifPresent(r -> {
                measured.add(global);
                ratios.add(r);
            });
        }
        if (ratios.isEmpty()) {
            return new TargetCheck(target, Status.NOT_MEASURED, "needs " + DURO + " and " + DUR);
        }
        StringBuilder detail = new StringBuilder("ratio");
        for (int i = 0; i < ratios.size(); i++) {
            detail.append(String.format(Locale.ROOT, " %d%%: %.2fx", measured.get(i), ratios.get(i)));
            detail.append(i + 1 < ratios.size() ? "," : ";");
        }
        Optional<Double> crossing = crossing(measured, ratios);
        if (crossing.isPresent()) {
            detail.append(String.format(Locale.ROOT, " break-even ~%.0f%% global", crossing.get()));
            return new TargetCheck(target, crossing.get() >= 50 ? Status.MET : Status.MISSED, detail.toString());
        }
        int highest = measured.get(measured.size() - 1);
        detail.append(" no break-even up to ").append(highest).append('%');
        return new TargetCheck(target, highest >= 50 ? Status.MET : Status.NOT_MEASURED, detail.toString());
    }

    private static Optional<Double> crossing(List<Integer> globals, List<Double> ratios) {
        if (ratios.get(0) < 1) {
            return Optional.of((double) globals.get(0));
        }
        for (int i = 1; i < ratios.size(); i++) {
            double before = ratios.get(i - 1);
            double after = ratios.get(i);
            if (after < 1) {
                double x0 = globals.get(i - 1);
                double x1 = globals.get(i);
                return Optional.of(x0 + (before - 1) / (before - after) * (x1 - x0));
            }
        }
        return Optional.empty();
    }
}
