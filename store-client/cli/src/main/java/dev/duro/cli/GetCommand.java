package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./duro get KEY}: one key read at the newest snapshot this client may see. */
@Command(
        name = "get",
        description = "Reads one key and prints its value; a missing key prints '(not found)' on standard error"
                + " and exits with 1.")
final class GetCommand extends ClientCommand {
    private final PrintStream out;
    private final PrintStream err;

    @Parameters(index = "0", paramLabel = "KEY", description = "the key, as UTF-8 text")
    String key = "";

    GetCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    int run(DuroClient client) {
        String value = client.get(key);
        if (value == null) {
            err.println("(not found)");
            return DuroCli.NO;
        }
        out.println(value);
        return 0;
    }
}
