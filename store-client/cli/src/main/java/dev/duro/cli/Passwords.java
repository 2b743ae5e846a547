package dev.duro.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Where the command line gets a password: a file's first line, the terminal, or standard input's first line. */
final class Passwords {
    private Passwords() {}

    /**
     * @param file the file given with {@code option}, or null to ask the terminal (or read standard input)
     * @throws ParameterException naming {@code option} for a file that cannot be read or holds no password
     */
    static char[] read(
            CommandLine command, @Nullable Path file, String option, String prompt, InputStream standardInput) {
        String line;
        if (file != null) {
            try {
                line = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .findFirst()
                        .orElse("");
            } catch (NoSuchFileException e) {
                throw new ParameterException(command, "Invalid value for option '" + option + "': no file " + file);
            } catch (IOException e) {
                throw new ParameterException(
                        command, "Invalid value for option '" + option + "': cannot read " + file + ": " + e);
            }
        } else {
            Console console = System.console();
            if (console != null) {
                char[] typed = console.readPassword("%s: ", prompt);
                line = typed == null ? "" : new String(typed);
            } else {
                try {
                    line = new BufferedReader(new InputStreamReader(standardInput, StandardCharsets.UTF_8)).readLine();
                } catch (IOException e) {
                    line = null;
                }
                line = line == null ? "" : line;
            }
        }
        if (line.isEmpty()) {
            throw new ParameterException(
                    command,
                    (file != null ? "Invalid value for option '" + option + "': " + file + " holds" : "got")
                            + " an empty password");
        }
        return line.toCharArray();
    }
}
