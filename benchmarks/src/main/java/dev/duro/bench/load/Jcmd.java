package dev.duro.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

/**
 * The JDK's {@code jcmd}, run against several JVMs at once: {@code --thread-cpu}'s thread dumps and {@code --profile}'s
 * recordings ({@link ThreadCpu}, {@link ThreadProfile}). Each command's output goes to a file rather than a pipe, so
 * a dump larger than a pipe's buffer cannot stall one {@code jcmd} while another is read.
 */
final class Jcmd {
    private static final Path BINARY = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    private static final long TIMEOUT_SECONDS = 60;

    private Jcmd() {}

    /** Whether this JVM has {@code jcmd} (a JDK, not a bare runtime). */
    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** Where {@code jcmd} is looked for, for an error that says what is missing. */
    static Path binary() {
        return BINARY;
    }

    /**
     * Runs {@code jcmd PID ARGUMENTS...} for every pid at once, {@code arguments} giving each its own, and returns
     * each one's output.
     *
     * @throws IOException naming the process and the command, when one did not answer in time or exited non-zero
     */
    static Map<Long, String> runAll(List<Long> pids, LongFunction<List<String>> arguments)
            throws IOException, InterruptedException {
        Map<Long, Process> running = new HashMap<>();
        Map<Long, Path> outputs = new HashMap<>();
        try {
            for (long pid : pids) {
                Path output = Files.createTempFile("duro-jcmd-" + pid + "-", ".txt");
                outputs.put(pid, output);
                List<String> command = new ArrayList<>(List.of(BINARY.toString(), Long.toString(pid)));
                command.addAll(arguments.apply(pid));
                running.put(
                        pid,
                        new ProcessBuilder(command)
                                .redirectErrorStream(true)
                                .redirectOutput(output.toFile())
                                .start());
            }
            Map<Long, String> answers = new HashMap<>();
            for (long pid : pids) {
                Process jcmd = Objects.requireNonNull(running.get(pid));
                String what = "jcmd " + pid + " " + String.join(" ", arguments.apply(pid));
                if (!jcmd.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IOException(what + " did not answer in " + TIMEOUT_SECONDS + " s");
                }
                String text = Files.readString(Objects.requireNonNull(outputs.get(pid)), StandardCharsets.UTF_8);
                if (jcmd.exitValue() != 0) {
                    throw new IOException(what + " failed (exit " + jcmd.exitValue() + "): " + firstLine(text));
                }
                answers.put(pid, text);
            }
            return answers;
        } finally {
            running.values().forEach(Process::destroyForcibly);
            for (Path output : outputs.values()) {
                Files.deleteIfExists(output);
            }
        }
    }

    static String firstLine(String text) {
        String trimmed = text.strip();
        int newline = trimmed.indexOf('\n');
        return newline < 0 ? trimmed : trimmed.substring(0, newline);
    }
}
