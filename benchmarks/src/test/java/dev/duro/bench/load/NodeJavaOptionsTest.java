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
        List<String> java17 = LocalBenchCluster.nodeJavaOptions(17, "  -Xmx2g   -XX:+UseParallelGC ");
        List<String> expected = new ArrayList<>(LocalBenchCluster.NODE_GC_OPTIONS);
        expected.addAll(LocalBenchCluster.nodeJavaOptions(21, ""));
        expected.addAll(List.of("-Xmx2g", "-XX:+UseParallelGC"));
        assertEquals(expected, java17);
        assertTrue(
                LocalBenchCluster.nodeJavaOptions(21, "").stream().noneMatch(o -> o.contains("G1ConcRefinement")),
                "Java 20 and later have no such flags");
    }

    @Test
    void hugePagesOnlyOnLinuxAndOnlyWhereTheKernelOffersThem() {
        assertTrue(HugePages.offered("Linux", "always [madvise] never\n"));
        assertTrue(HugePages.offered("Linux", "[always] madvise never\n"));
        assertFalse(HugePages.offered("Linux", "always madvise [never]\n"), "the kernel's mode is never");
        assertFalse(HugePages.offered("Linux", null), "no such file");
        assertFalse(HugePages.offered("Mac OS X", "always [madvise] never"), "the flag exists only on Linux");
        List<String> options = LocalBenchCluster.nodeJavaOptions(21, "");
        assertEquals(
                HugePages.options().isEmpty() ? 0 : 1,
                options.stream().filter(HugePages.OPTION::equals).count(),
                "nodes ask for huge pages exactly where this machine offers them: " + options);
        assertTrue(
                options.indexOf(HugePages.OPTION) < options.indexOf("-Xmx1g"),
                "the project's options and a measurement's come after, and win");
    }

    @Test
    void theDuroScriptAndTheImageAskForHugePagesAsTheBenchDoes() throws IOException {
        String script = Files.readString(ROOT.resolve("duro"), StandardCharsets.UTF_8);
        Matcher array = Pattern.compile("NODE_MEMORY_OPTS=\\(([^)]*)\\)").matcher(script);
        assertTrue(array.find(), "NODE_MEMORY_OPTS in ./duro");
        assertEquals(
                List.of(HugePages.OPTION), Arrays.asList(array.group(1).trim().split("\\s+")), "./duro");
        assertTrue(
                script.contains("/sys/kernel/mm/transparent_hugepage/enabled"),
                "./duro asks only where the kernel offers them");
        String dockerfile = Files.readString(ROOT.resolve("docker").resolve("Dockerfile"), StandardCharsets.UTF_8);
        assertTrue(dockerfile.contains(" " + HugePages.OPTION + "\""), "the image's JAVA_OPTS");
    }

    @Test
    void theDuroScriptAndTheImageGiveNodesTheSameGcFlags() throws IOException {
        String script = Files.readString(ROOT.resolve("duro"), StandardCharsets.UTF_8);
        Matcher array = Pattern.compile("NODE_GC_OPTS=\\(([^)]*)\\)").matcher(script);
        assertTrue(array.find(), "NODE_GC_OPTS in ./duro");
        assertEquals(
                LocalBenchCluster.NODE_GC_OPTIONS,
                Arrays.asList(array.group(1).trim().split("\\s+")),
                "./duro");
        String dockerfile = Files.readString(ROOT.resolve("docker").resolve("Dockerfile"), StandardCharsets.UTF_8);
        for (String option : LocalBenchCluster.NODE_GC_OPTIONS) {
            assertTrue(dockerfile.contains(" " + option), option + " missing from the image's JAVA_OPTS");
        }
    }
}
