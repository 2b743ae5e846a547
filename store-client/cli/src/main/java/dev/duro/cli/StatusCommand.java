package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code ./duro status}: the options and the client for {@link StatusReport}, and its verdict as the exit status. */
@Command(
        name = "status",
        description = "Every partition's replicas: role, term, commit and applied index, lag, SC, pending, digest,"
                + " and whether they agree; exits with 1 if the replicas of a partition diverged.")
final class StatusCommand extends ClientCommand {
    private final PrintStream out;

    StatusCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    int run(DuroClient client) {
        return new StatusReport(client.refreshCluster(), client::replicaStatus).print(out);
    }
}
