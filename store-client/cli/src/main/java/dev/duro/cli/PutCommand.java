package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./duro put KEY VALUE}: one key written in its own transaction. */
@Command(name = "put", description = "Writes one key in its own transaction; prints OK.")
final class PutCommand extends ClientCommand {
    private final PrintStream out;

    @Parameters(index = "0", paramLabel = "KEY", description = "the key, as UTF-8 text")
    String key = "";

    @Parameters(index = "1", paramLabel = "VALUE", description = "its new value, as UTF-8 text")
    String value = "";

    PutCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    int run(DuroClient client) {
        client.put(key, value);
        out.println("OK");
        return 0;
    }
}
