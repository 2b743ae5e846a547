package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The bench starts its nodes as {@code ./duro local} and the Docker image run them: the same G1 flags where the JVM
 * has them (docs/design-decisions.md), the project's options, then whatever a measurement adds.
 */
class NodeJavaOptionsTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void gcFlagsOnJavaSeventeenToNineteenThenTheDefaultsThenTheExtraOnesWhichWin() {
        List<String> java17 = LocalBenchCluster.nodeJavaOptions(17, false, "  -Xmx2g   -XX:+UseParallelGC ");
        List<String> expected = new ArrayList<>(StoreJvmOptions.G1_REFINEMENT_IN_PAUSES);
        expected.addAll(LocalBenchCluster.nodeJavaOptions(21, false, ""));
        expected.addAll(List.of("-Xmx2g", "-XX:+UseParallelGC"));
        assertEquals(expected, java17);
        assertTrue(
                LocalBenchCluster.nodeJavaOptions(21, false, "").stream()
                        .noneMatch(o -> o.contains("G1ConcRefinement")),
                "Java 20 and later have no such flags");
    }

    @Test
    void nodesStartWithTheOptionsOfAJvmThatHoldsAStore() {
        for (int feature : List.of(17, 21)) {
            for (boolean hugePages : List.of(false, true)) {
                List<String> store = StoreJvmOptions.of(feature, hugePages);
                List<String> node = LocalBenchCluster.nodeJavaOptions(feature, hugePages, "");
                assertEquals(store, node.subList(0, store.size()), "Java " + feature + ", huge pages " + hugePages);
            }
        }
        assertEquals(List.of(HugePages.OPTION), StoreJvmOptions.of(21, true), "Java 20 and later: huge pages alone");
        assertTrue(StoreJvmOptions.of(17, false).containsAll(StoreJvmOptions.G1_REFINEMENT_IN_PAUSES));
    }

    @Test
    void hugePagesOnlyOnLinuxAndOnlyWhereTheKernelOffersThem() {
        assertTrue(HugePages.offered("Linux", "always [madvise] never\n"));
        assertTrue(HugePages.offered("Linux", "[always] madvise never\n"));
        assertFalse(HugePages.offered("Linux", "always madvise [never]\n"), "the kernel's mode is never");
        assertFalse(HugePages.offered("Linux", null), "no such file");
        assertFalse(HugePages.offered("Mac OS X", "always [madvise] never"), "the flag exists only on Linux");
    }

    @Test
    void hugePagesComeAfterTheGcFlagsAndBeforeTheOptionsThatWin() {
        List<String> with = LocalBenchCluster.nodeJavaOptions(17, true, "-XX:-UseTransparentHugePages");
        List<String> expected = new ArrayList<>(StoreJvmOptions.G1_REFINEMENT_IN_PAUSES);
        expected.add(HugePages.OPTION);
        expected.addAll(LocalBenchCluster.nodeJavaOptions(21, false, "-XX:-UseTransparentHugePages"));
        assertEquals(expected, with);
        assertFalse(LocalBenchCluster.nodeJavaOptions(17, false, "").contains(HugePages.OPTION));
    }

    @Test
    void profiledNodesKeepDebugInformationEverywhereAndGivenOptionsStillWin() {
        List<String> profiled = LocalBenchCluster.nodeJavaOptions(
                17, false, LocalBenchCluster.extraJavaOptions(true, "-XX:-DebugNonSafepoints"));
        int on = profiled.indexOf("-XX:+DebugNonSafepoints");
        assertTrue(on >= 0 && profiled.indexOf("-XX:+UnlockDiagnosticVMOptions") == on - 1, profiled.toString());
        assertTrue(profiled.indexOf("-XX:-DebugNonSafepoints") > on, "given after, so it wins: " + profiled);
        assertEquals("-Xmx2g", LocalBenchCluster.extraJavaOptions(false, "-Xmx2g"));
    }

    @Test
    void theDuroScriptAndTheImageAskForHugePagesAsTheBenchDoes() throws IOException {
        String script = Files.readString(ROOT.resolve("duro"), StandardCharsets.UTF_8);
        assertEquals(List.of(HugePages.OPTION), scriptArray(script, "NODE_MEMORY_OPTS"), "./duro");
        assertTrue(
                script.contains("/sys/kernel/mm/transparent_hugepage/enabled"),
                "./duro asks only where the kernel offers them");
        assertTrue(dockerfile().contains(" " + HugePages.OPTION + "\""), "the image's JAVA_OPTS");
    }

    @Test
    void theDuroScriptAndTheImageGiveNodesTheSameGcFlags() throws IOException {
        String script = Files.readString(ROOT.resolve("duro"), StandardCharsets.UTF_8);
        assertEquals(StoreJvmOptions.G1_REFINEMENT_IN_PAUSES, scriptArray(script, "NODE_GC_OPTS"), "./duro");
        String dockerfile = dockerfile();
        for (String option : StoreJvmOptions.G1_REFINEMENT_IN_PAUSES) {
            assertTrue(dockerfile.contains(" " + option), option + " missing from the image's JAVA_OPTS");
        }
    }

    /** The elements of the bash array {@code name} that {@code script} assigns. */
    private static List<String> scriptArray(String script, String name) {
        Matcher array = Pattern.compile(name + "=\\(([^)]*)\\)").matcher(script);
        assertTrue(array.find(), name + " in ./duro");
        return Arrays.asList(array.group(1).trim().split("\\s+"));
    }

    private static String dockerfile() throws IOException {
        return Files.readString(ROOT.resolve("docker").resolve("Dockerfile"), StandardCharsets.UTF_8);
    }
}
