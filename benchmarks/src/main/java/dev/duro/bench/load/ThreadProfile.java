package dev.duro.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * JFR recordings of the node processes over the measured window ({@code ./duro bench --profile}), started and stopped
 * with the JDK's {@code jcmd}, and each turned into collapsed stacks and a flame graph beside the results.
 *
 * <p>The recordings use JFR's {@code default} settings (Java stacks sampled every 20 ms per running thread; {@code
 * profile}'s 10 ms and allocation samples cost more: docs/performance.md, "CPU by thread, and flame graphs"). A
 * recording starts with the warm-up: starting JFR makes a warm JVM compile again, and the warm-up's wait for the JIT
 * absorbs that. Each
 * collapsed stack starts with the component of the thread it was sampled on ({@link ThreadCpu.Component}), so the
 * flame graph's bottom row matches {@code --thread-cpu}'s table. JFR samples Java code only: the collector and the
 * compilers, which run no Java, are in that table and not here. The run's CPU figures include the recording's cost.
 */
final class ThreadProfile {
    private static final String RECORDING = "duro-bench";

    /** The files written for one process. */
    record Written(Path recording, Path folded, Path flameGraph) {}

    private final Path directory;
    private final List<Long> pids;

    private ThreadProfile(Path directory, List<Long> pids) {
        this.directory = directory;
        this.pids = pids;
    }

    /** Starts a recording in each of {@code pids}; {@link #stop} writes them to {@code directory}. */
    static ThreadProfile start(Path directory, List<Long> pids) throws IOException, InterruptedException {
        ThreadProfile profile = new ThreadProfile(directory.toAbsolutePath(), List.copyOf(pids));
        Files.createDirectories(profile.directory);
        List<String> arguments = List.of("JFR.start", "name=" + RECORDING, "settings=default");
        Jcmd.runAll(profile.pids, pid -> arguments);
        return profile;
    }

    /**
     * Stops every recording, writes it, and writes the collapsed stacks and flame graph of its samples from {@code
     * from} to {@code to} (the measured window) beside it.
     */
    List<Written> stop(Instant from, Instant to) throws IOException, InterruptedException {
        Jcmd.runAll(pids, pid -> List.of("JFR.stop", "name=" + RECORDING, "filename=" + file(pid, "jfr")));
        List<Written> written = new ArrayList<>();
        for (long pid : pids) {
            Path recording = file(pid, "jfr");
            Map<String, Long> folded = collapse(recording, from, to);
            Path foldedFile = file(pid, "folded");
            Files.writeString(foldedFile, foldedText(folded), StandardCharsets.UTF_8);
            Path svg = file(pid, "svg");
            Files.writeString(
                    svg, FlameGraph.svg("node process " + pid + ", measured window", folded), StandardCharsets.UTF_8);
            written.add(new Written(recording, foldedFile, svg));
        }
        return written;
    }

    /** Process {@code pid}'s file of the kind {@code extension} ({@code jfr}, {@code folded}, {@code svg}). */
    private Path file(long pid, String extension) {
        return directory.resolve("node-" + pid + "." + extension);
    }

    /**
     * The execution samples of {@code recording} taken from {@code from} to {@code to}, as collapsed stacks: the
     * sampled thread's component, then its frames from the outermost in, each {@code Class.method}, to sample counts.
     */
    static Map<String, Long> collapse(Path recording, Instant from, Instant to) throws IOException {
        Map<String, Long> folded = new TreeMap<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample")
                        || event.getStartTime().isBefore(from)
                        || event.getStartTime().isAfter(to)) {
                    continue;
                }
                String stack = stackOf(event);
                if (stack != null) {
                    folded.merge(stack, 1L, Long::sum);
                }
            }
        }
        return folded;
    }

    private static @Nullable String stackOf(RecordedEvent event) {
        RecordedStackTrace trace = event.getStackTrace();
        if (trace == null) {
            return null;
        }
        RecordedThread thread = event.getThread("sampledThread");
        String threadName = thread == null ? null : thread.getJavaName();
        List<String> frames = new ArrayList<>();
        frames.add(ThreadCpu.Component.of(threadName == null ? "" : threadName).key);
        List<RecordedFrame> recorded = new ArrayList<>(trace.getFrames());
        Collections.reverse(recorded);
        for (RecordedFrame frame : recorded) {
            if (frame.getMethod() == null) {
                continue;
            }
            String type = frame.getMethod().getType() == null
                    ? "?"
                    : frame.getMethod().getType().getName();
            frames.add(simpleName(type) + "." + frame.getMethod().getName());
        }
        return String.join(";", frames).replace(' ', '_');
    }

    /** {@code dev.duro.core.PartitionEngine$Effects} as {@code PartitionEngine$Effects}: the boxes are narrow. */
    private static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }

    static String foldedText(Map<String, Long> folded) {
        StringBuilder text = new StringBuilder();
        folded.forEach((stack, samples) ->
                text.append(stack).append(' ').append(samples).append('\n'));
        return text.toString();
    }
}
