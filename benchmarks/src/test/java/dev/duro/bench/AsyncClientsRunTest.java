package dev.duro.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./duro bench --async-clients} against a real cluster (two partitions of three replicas in this JVM, 10% of the
 * transactions global): the asynchronous clients commit, none of their transactions ends in an error (an abort is
 * not one), and the run ends.
 */
class AsyncClientsRunTest {
    @TempDir
    Path results;

    @Test
    void asynchronousClientsCommitWithoutErrorsAndStopWithTheRun() throws IOException {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int status = BenchMain.commandLine(new PrintStream(console, true, StandardCharsets.UTF_8))
                .execute(
                        "--in-process",
                        "--async-clients",
                        "--partitions",
                        "2",
                        "--replicas",
                        "3",
                        "--global",
                        "10",
                        "--clients",
                        "16",
                        "--keys-per-partition",
                        "1000",
                        "--warmup",
                        "2",
                        "--jit-settle",
                        "0",
                        "--duration",
                        "3",
                        "--out",
                        results.toString());
        String printed = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, printed);
        String json = Files.readString(results.resolve("result.json"));
        assertTrue(number(json, "committedPerSecond") > 0, json);
        assertEquals(0, number(json, "errors"), json);
    }

    private static double number(String json, String field) {
        Matcher matcher =
                Pattern.compile("\"" + field + "\"\\s*:\\s*([0-9.eE+-]+)").matcher(json);
        assertTrue(matcher.find(), field + " missing from " + json);
        return Double.parseDouble(matcher.group(1));
    }
}
