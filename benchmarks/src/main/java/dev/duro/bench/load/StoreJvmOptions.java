package dev.duro.bench.load;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options of the processes that hold a store, besides their heap: the nodes, as {@code ./duro} and the Docker
 * image start them, and the JMH forks of the micro suite, so that the engine is measured in the JVM it runs in.
 */
public final class StoreJvmOptions {
    /**
     * G1 refining its remembered sets in its pauses rather than on a thread of its own beside the application (up to
     * Java 19, which have these flags; docs/performance.md, "Refinement in G1's pauses").
     */
    public static final List<String> G1_REFINEMENT_IN_PAUSES = List.of(
            "-XX:-G1UseAdaptiveConcRefinement",
            "-XX:G1ConcRefinementGreenZone=100000",
            "-XX:G1ConcRefinementYellowZone=200000",
            "-XX:G1ConcRefinementRedZone=300000");

    private StoreJvmOptions() {}

    /**
     * The options for Java {@code javaFeature}: {@link #G1_REFINEMENT_IN_PAUSES} where it has those flags, then huge
     * pages if {@code hugePages} ({@link HugePages#offered}). A new list, which the caller may extend with options of its
     * own.
     */
    public static List<String> of(int javaFeature, boolean hugePages) {
        List<String> options = new ArrayList<>();
        if (javaFeature < 20) {
            options.addAll(G1_REFINEMENT_IN_PAUSES);
        }
        if (hugePages) {
            options.add(HugePages.OPTION);
        }
        return options;
    }

    /** The options for this JVM's Java on this machine. */
    public static List<String> forThisMachine() {
        return of(Runtime.version().feature(), HugePages.offered());
    }
}
