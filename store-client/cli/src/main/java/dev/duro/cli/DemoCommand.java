package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./duro demo}: the options and the client for {@link Demo}, and its verdict as the exit status. */
@Command(
        name = "demo",
        description = "The demo workload: transfers between accounts on every partition while an auditor checks"
                + " the total; exits with 1 if an audit saw a wrong total.")
final class DemoCommand extends ClientCommand {
    private final PrintStream out;
    int seconds = 20;

    DemoCommand(PrintStream out) {
        this.out = out;
    }

    @Option(
            names = "--seconds",
            paramLabel = "S",
            defaultValue = "20",
            description = "how long to run (default: ${DEFAULT-VALUE})")
    void seconds(int value) {
        seconds = atLeastOne(value, "--seconds");
    }

    @Override
    int run(DuroClient client) {
        return new Demo(client, Duration.ofSeconds(seconds), out).run() ? 0 : DuroCli.NO;
    }
}
