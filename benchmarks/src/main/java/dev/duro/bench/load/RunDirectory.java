package dev.duro.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * A run's data directory in the temporary folder, marked with the pid of the load generator that owns it. A load
 * generator killed outright (SIGKILL) cannot remove its own; the next run that creates one with the same prefix removes
 * those whose owner no longer runs. A directory without a mark, or whose owner runs, is never touched.
 */
final class RunDirectory {
    /** The file inside a run directory that names its owner's pid. */
    static final String OWNER_FILE = "owner.pid";

    private RunDirectory() {}

    /**
     * Removes the stale directories named {@code prefix*} in {@code parent} (saying so on {@code out}), then creates a
     * fresh one there owned by this process.
     */
    static Path create(Path parent, String prefix, PrintStream out) throws IOException {
        for (Path stale : stale(parent, prefix)) {
            try {
                delete(stale);
                out.println("removed " + stale + ", left by a load generator that no longer runs");
            } catch (IOException e) {
                out.println("could not remove " + stale + " (left by a load generator that no longer runs): "
                        + e.getMessage());
            }
        }
        Path directory = Files.createTempDirectory(parent, prefix);
        Files.writeString(
                directory.resolve(OWNER_FILE),
                Long.toString(ProcessHandle.current().pid()),
                StandardCharsets.UTF_8);
        return directory;
    }

    /** {@link #create(Path, String, PrintStream)} in the JVM's temporary folder, reporting on standard error. */
    static Path create(String prefix) throws IOException {
        return create(Path.of(System.getProperty("java.io.tmpdir")), prefix, System.err);
    }

    /**
     * The directories named {@code prefix*} in {@code parent} whose owner's mark names a process that is gone. A
     * prefix covers the longer ones it starts ({@code duro-bench-} those of {@code duro-bench-etcd-}): stale either way.
     */
    static List<Path> stale(Path parent, String prefix) throws IOException {
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path candidate : candidates) {
                OptionalLong owner = owner(candidate);
                if (owner.isPresent() && ProcessHandle.of(owner.getAsLong()).isEmpty()) {
                    stale.add(candidate);
                }
            }
        }
        return stale;
    }

    /** The pid in a directory's mark; empty without a readable one. */
    private static OptionalLong owner(Path directory) {
        Path mark = directory.resolve(OWNER_FILE);
        if (!Files.isRegularFile(mark)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(
                    Files.readString(mark, StandardCharsets.UTF_8).trim()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Deletes a directory and everything in it. */
    static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
