package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code --profile}: a JFR recording of a JVM, its samples collapsed under their threads' components, its graph. */
class ThreadProfileTest {
    @TempDir
    Path out;

    @Test
    void aFlameGraphsBoxesAreAsWideAsTheirSamplesAndSitOnTheirCallers() throws Exception {
        Map<String, Long> folded = new TreeMap<>(Map.of("apply;a;b", 3L, "apply;a;c", 1L, "logWorker;d", 4L));
        String svg = FlameGraph.svg("test <&> graph", folded);
        NodeList groups = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)))
                .getElementsByTagName("g");
        Map<String, Element> boxes = new TreeMap<>();
        for (int i = 0; i < groups.getLength(); i++) {
            Element group = (Element) groups.item(i);
            String title = group.getElementsByTagName("title").item(0).getTextContent();
            boxes.put(title.substring(0, title.indexOf(' ')), (Element)
                    group.getElementsByTagName("rect").item(0));
        }
        assertEquals(List.of("a", "all", "apply", "b", "c", "d", "logWorker"), List.copyOf(boxes.keySet()));
        assertEquals(1200.0, width(boxes.get("all")));
        assertEquals(600.0, width(boxes.get("apply")), "4 of 8 samples");
        assertEquals(450.0, width(boxes.get("b")), "3 of 8");
        assertEquals(150.0, width(boxes.get("c")));
        assertEquals(x(boxes.get("b")) + width(boxes.get("b")), x(boxes.get("c")), "siblings side by side");
        assertEquals(x(boxes.get("apply")) + width(boxes.get("apply")), x(boxes.get("logWorker")));
        assertTrue(y(boxes.get("b")) < y(boxes.get("a")) && y(boxes.get("a")) < y(boxes.get("apply")), "callees above");
        assertTrue(svg.contains("test &lt;&amp;&gt; graph (8 samples)"), svg);
        assertTrue(svg.contains("<title>b (3 samples, 37.50%)</title>"), svg);
    }

    private static double width(Element rect) {
        return Double.parseDouble(rect.getAttribute("width"));
    }

    private static double x(Element rect) {
        return Double.parseDouble(rect.getAttribute("x"));
    }

    private static double y(Element rect) {
        return Double.parseDouble(rect.getAttribute("y"));
    }

    @Test
    void aRecordingOfThisJvmShowsTheWindowsBusyApplyThreadUnderItsComponent() throws Exception {
        assumeTrue(Jcmd.available(), "needs the JDK's jcmd");
        ThreadProfile profile =
                ThreadProfile.start(out, List.of(ProcessHandle.current().pid()));
        spinFor(Duration.ofMillis(1_500), ThreadProfileTest::spinBeforeTheWindow); // left out of the graph
        Instant from = Instant.now();
        spinFor(Duration.ofMillis(1_500), ThreadProfileTest::spinForTheProfile); // about 75 samples at 20 ms
        List<ThreadProfile.Written> written = profile.stop(from, Instant.now());

        assertEquals(1, written.size());
        ThreadProfile.Written files = written.get(0);
        assertTrue(Files.size(files.recording()) > 0, "the recording was written");
        String folded = Files.readString(files.folded());
        long samples = folded.lines()
                .filter(line -> line.startsWith("apply;") && line.contains("ThreadProfileTest.spinForTheProfile"))
                .mapToLong(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
        assertTrue(samples >= 10, "the spinning thread's samples, under apply: " + samples + "\n" + folded);
        assertTrue(
                folded.lines().noneMatch(line -> line.contains("spinBeforeTheWindow")),
                "samples before the window are left out:\n" + folded);
        assertTrue(
                ThreadProfile.collapse(files.recording(), Instant.MIN, Instant.MAX).keySet().stream()
                        .anyMatch(stack -> stack.contains("ThreadProfileTest.spinBeforeTheWindow")),
                "though the recording has them");
        assertTrue(Files.readString(files.flameGraph()).contains("ThreadProfileTest.spinForTheProfile"));
    }

    /** Runs {@code spin} on an apply thread (by its name) until {@code length} has passed, and waits for it. */
    private static void spinFor(Duration length, LongUnaryOperator spin) throws InterruptedException {
        AtomicLong sink = new AtomicLong();
        long deadline = System.nanoTime() + length.toNanos();
        Thread busy = new Thread(() -> sink.set(spin.applyAsLong(deadline)), "test@group-ABCDEF-StateMachineUpdater");
        busy.setDaemon(true);
        busy.start();
        busy.join(30_000);
    }

    private static long spinBeforeTheWindow(long deadlineNanos) {
        return spinUntil(deadlineNanos);
    }

    private static long spinForTheProfile(long deadlineNanos) {
        return spinUntil(deadlineNanos);
    }

    private static long spinUntil(long deadlineNanos) {
        long sum = 0;
        while (System.nanoTime() < deadlineNanos) {
            for (int i = 0; i < 10_000; i++) {
                sum += i ^ (sum >>> 3);
            }
        }
        return sum;
    }
}
