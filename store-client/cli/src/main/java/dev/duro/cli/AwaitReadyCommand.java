package dev.duro.cli;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./duro await-ready}: waits until the cluster serves, for scripts that start one. */
@Command(
        name = "await-ready",
        description = "Waits until the cluster serves (every partition has a leader and a linearizable read"
                + " succeeds), then prints one line; exits with 2 if it does not within the timeout.")
final class AwaitReadyCommand extends ClientCommand {
    private final PrintStream out;
    int timeoutSeconds = 60;

    AwaitReadyCommand(PrintStream out) {
        this.out = out;
    }

    @Option(
            names = "--timeout-seconds",
            paramLabel = "S",
            defaultValue = "60",
            description = "how long to wait before giving up (default: ${DEFAULT-VALUE})")
    void timeoutSeconds(int value) {
        timeoutSeconds = atLeastOne(value, "--timeout-seconds");
    }

    @Override
    int run(DuroClient client) {
        ClusterView view = client.awaitReady(Duration.ofSeconds(timeoutSeconds));
        out.println("duro cluster '" + view.clusterName() + "' ready: " + view.partitionCount()
                + " partitions, clients on " + cluster);
        return 0;
    }
}
