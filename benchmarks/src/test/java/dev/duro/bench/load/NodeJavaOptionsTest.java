package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
