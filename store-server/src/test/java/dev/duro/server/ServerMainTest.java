package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code ./duro server}'s command line. Every case here is refused before the node starts, so no test leaves a
 * node, a system property or a logging configuration behind.
 */
class ServerMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @Test
    void withoutAConfigurationTheNodeIsRefusedNamingTheOptionWithTheUsage() {
        assertEquals(2, run());
        assertTrue(stderr().startsWith("Missing required option: '--config=FILE'"), stderr());
        assertTrue(stderr().contains("Usage: duro server"), stderr());
    }

    @Test
    void aSetWithoutEqualsIsRefusedNamingTheOption() throws IOException {
        assertEquals(2, run("--config", emptyFile().toString(), "--set", "node.id"));
        assertTrue(
                stderr().startsWith("Invalid value for option '--set' (KEY=VALUE): expects key=value, got 'node.id'"),
                stderr());
        assertFalse(stderr().contains("Exception"), stderr());
    }

    @Test
    void aSetWithoutAKeyIsRefusedNamingTheOption() throws IOException {
        assertEquals(2, run("--config", emptyFile().toString(), "--set", " =n1"));
        assertTrue(stderr().startsWith("Invalid value for option '--set'"), stderr());
    }

    @Test
    void aSettingIsTrimmedAndItsValueMayHoldEqualsOrBeEmpty() {
        ServerMain.Setting.Converter converter = new ServerMain.Setting.Converter();
        assertEquals(new ServerMain.Setting("log.format", "json"), converter.convert(" log.format = json "));
        assertEquals(new ServerMain.Setting("a", "b=c"), converter.convert("a=b=c"));
        assertEquals(new ServerMain.Setting("a", ""), converter.convert("a="));
        assertThrows(TypeConversionException.class, () -> converter.convert("=b"));
    }

    @Test
    void aFileThatCannotBeReadIsNamedWithStatus2() {
        Path missing = dir.resolve("missing.properties");
        assertEquals(2, run("--config", missing.toString()));
        assertTrue(stderr().startsWith("duro server: cannot read " + missing + ": "), stderr());
        assertEquals(1, stderr().lines().count(), stderr());
    }

    @Test
    void aConfigurationProblemKeepsItsMessageNamingTheKeyWithStatus2() throws IOException {
        assertEquals(2, run("--config", emptyFile().toString(), "--set", "cluster.partitions=many"));
        assertTrue(stderr().startsWith("duro server: "), stderr());
        assertTrue(stderr().contains("cluster.partitions"), stderr());
        assertFalse(stderr().contains("Usage:"), "the command line was right: " + stderr());
    }

    @Test
    void aTlsSettingWithoutTheOthersStopsTheNodeNamingTheMissingKeysWithStatus2() throws IOException {
        assertEquals(2, run("--config", emptyFile().toString(), "--set", "tls.ca-file=" + dir.resolve("ca.pem")));
        assertTrue(stderr().contains("tls.cert-file is required when any tls.* setting is given"), stderr());
        assertTrue(stderr().contains("tls.key-file is required"), stderr());
        assertFalse(stderr().contains("Exception"), stderr());
    }

    @Test
    void helpPrintsTheOptionsOnStandardOutput() {
        assertEquals(0, run("--help"));
        assertTrue(stdout().startsWith("Usage: duro server"), stdout());
        for (String option : new String[] {"--config=FILE", "--set=KEY=VALUE", "--help"}) {
            assertTrue(stdout().contains(option), option + " missing from " + stdout());
        }
        assertEquals("", stderr());
    }

    @Test
    void theInputWatchActsWhenTheInputEndsNotWhenBytesArrive() throws Exception {
        PipedOutputStream parent = new PipedOutputStream();
        PipedInputStream input = new PipedInputStream(parent);
        CountDownLatch ended = new CountDownLatch(1);
        Thread watch = ServerMain.whenClosed(input, ended::countDown);
        assertTrue(watch.isDaemon(), "the watch must not keep the JVM alive");
        parent.write("still here\n".getBytes(StandardCharsets.UTF_8));
        parent.flush();
        Await.until("the watch reads what was written", () -> {
            int unread = unread(input);
            return unread == 0 ? Await.Poll.done(true) : Await.Poll.notYet(unread + " bytes unread");
        });
        assertEquals(1, ended.getCount(), "bytes on the input are not its end");
        parent.close();
        assertTrue(ended.await(Await.DEADLINE.toSeconds(), TimeUnit.SECONDS), "the end of the input was missed");
        watch.join(Await.DEADLINE.toMillis());
        assertFalse(watch.isAlive());
    }

    @Test
    void helpListsTheInputWatch() {
        assertEquals(0, run("--help"));
        assertTrue(stdout().contains("--exit-with-input"), stdout());
    }

    private int run(String... args) {
        return ServerMain.commandLine(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .execute(args);
    }

    private static int unread(PipedInputStream input) {
        try {
            return input.available();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path emptyFile() throws IOException {
        return Files.writeString(dir.resolve("node.properties"), "# nothing set\n");
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
