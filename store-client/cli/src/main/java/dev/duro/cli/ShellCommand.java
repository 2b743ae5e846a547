package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.InputStream;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code ./duro shell}: the options and the client for {@link Shell}, which reads the commands. */
@Command(
        name = "shell",
        description = "An interactive prompt: begin, get, put, delete, scan FROM TO [LIMIT], scanprefix P [LIMIT],"
                + " commit, rollback, exit. Outside begin ... commit each get, put and scan is a transaction of its"
                + " own.")
final class ShellCommand extends ClientCommand {
    private final InputStream in;
    private final PrintStream out;

    ShellCommand(InputStream in, PrintStream out) {
        this.in = in;
        this.out = out;
    }

    @Override
    int run(DuroClient client) {
        new Shell(client, in, out).run();
        return 0;
    }
}
