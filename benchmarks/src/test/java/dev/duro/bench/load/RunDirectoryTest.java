package dev.duro.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Run directories left by a load generator killed outright are removed by the next run, and nothing else is. */
class RunDirectoryTest {
    @TempDir
    Path parent;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void aFreshDirectoryNamesThisProcessAsItsOwner() throws IOException {
        Path directory = create();
        assertTrue(directory.getFileName().toString().startsWith("duro-bench-"), directory.toString());
        assertEquals(
                Long.toString(ProcessHandle.current().pid()),
                Files.readString(directory.resolve(RunDirectory.OWNER_FILE), StandardCharsets.UTF_8));
    }

    @Test
    void onlyDirectoriesWhoseOwnerIsGoneAreRemoved() throws IOException, InterruptedException {
        Path orphaned = directory("duro-bench-orphaned", Long.toString(finishedProcessPid()));
        Files.writeString(orphaned.resolve("node.log"), "left behind");
        Path running = directory(
                "duro-bench-running", Long.toString(ProcessHandle.current().pid()));
        Path unmarked = directory("duro-bench-unmarked", null);
        Path garbled = directory("duro-bench-garbled", "not a pid");
        Path otherPrefix = directory("someone-else", Long.toString(finishedProcessPid()));

        assertEquals(List.of(orphaned), RunDirectory.stale(parent, "duro-bench-"));
        Path fresh = create();

        assertFalse(Files.exists(orphaned), "the orphan's data is removed");
        for (Path kept : List.of(running, unmarked, garbled, otherPrefix, fresh)) {
            assertTrue(Files.isDirectory(kept), kept + " must be kept");
        }
        String said = out.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("removed " + orphaned), said);
        assertEquals(1, said.lines().count(), said);
    }

    private Path create() throws IOException {
        return RunDirectory.create(parent, "duro-bench-", new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    private Path directory(String name, @Nullable String owner) throws IOException {
        Path directory = Files.createDirectory(parent.resolve(name));
        if (owner != null) {
            Files.writeString(directory.resolve(RunDirectory.OWNER_FILE), owner);
        }
        return directory;
    }

    /** The pid of a process that has exited: no process runs under it now (unless reused, which is rare enough). */
    private static long finishedProcessPid() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }
}
