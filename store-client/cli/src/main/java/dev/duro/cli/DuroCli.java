package dev.duro.cli;

import dev.duro.client.ServerErrorException;
import dev.duro.client.UnavailableException;
import dev.duro.core.DuroException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The client side of {@code ./duro}: {@code put}, {@code get}, {@code scan}, {@code shell}, {@code demo}, {@code status},
 * {@code await-ready} and {@code admin}. Every command takes {@code --cluster host:port,...} (default: the three
 * nodes of {@code ./duro local}), {@code --user} and {@code --password-file} (docs/auth.md), and {@code --help}.
 *
 * <p>Exit status: 0 on success; 1 when the answer is "no" ({@code get} of a missing key, replicas that diverged,
 * a demo whose audit saw a wrong total); 2 for a bad command line (picocli names the option and prints the usage)
 * and for a request the cluster could not serve (one line on standard error, no stack trace).
 *
 * <p>This class is the root command: it assembles the subcommands, each a class of its own ({@link PutCommand},
 * {@link GetCommand}, {@link ScanCommand}, {@link ShellCommand}, {@link DemoCommand}, {@link StatusCommand},
 * {@link AwaitReadyCommand}, {@link Admin}; the options they share in {@link ClientCommand}), and turns a cluster's
 * failure into the exit status above.
 */
@Command(
        name = "duro",
        synopsisSubcommandLabel = "COMMAND",
        description = "The client commands of ./duro, against a running cluster (./duro local starts one).")
public final class DuroCli {
    static final String DEFAULT_CLUSTER = "127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103";

    /** The answer is "no": a missing key, diverged replicas, a failed demo audit. */
    static final int NO = 1;

    /** A request the cluster could not serve; the same status as a usage error, as before picocli. */
    static final int FAILED = 2;

    /**
     * The tool's own logging configuration, in the shaded jar beside Logback: warnings only, on standard error, so
     * that the client's warnings never mix with the answers on standard output. Not named logback.xml, which an
     * application embedding the client would find on its class path.
     */
    private static final String LOGBACK_CONFIGURATION = "dev/duro/cli/logback-cli.xml";

    private static final int USAGE_WIDTH = 110;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help and exit; COMMAND --help shows a command's")
    private boolean help;

    private DuroCli() {}

    public static void main(String[] args) {
        // Before anything logs: Logback reads the property once, when the first logger is created.
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", LOGBACK_CONFIGURATION);
        }
        System.exit(commandLine(System.in, System.out, System.err).execute(args));
    }

    /** The whole command line, reading the shell's input from {@code in} and answering on {@code out}. */
    static CommandLine commandLine(InputStream in, PrintStream out, PrintStream err) {
        CommandLine duro = new CommandLine(new DuroCli())
                .addSubcommand(new PutCommand(out))
                .addSubcommand(new GetCommand(out, err))
                .addSubcommand(new ScanCommand(out, err))
                .addSubcommand(new ShellCommand(in, out))
                .addSubcommand(new DemoCommand(out))
                .addSubcommand(new StatusCommand(out))
                .addSubcommand(new AwaitReadyCommand(out))
                .addSubcommand(Admin.commandLine(in, out));
        // Set after the subcommands are added: these settings reach only the subcommands present.
        return duro.setOut(writer(out))
                .setErr(writer(err))
                .setExecutionExceptionHandler(DuroCli::clusterFailure)
                .setUsageHelpWidth(USAGE_WIDTH);
    }

    private static PrintWriter writer(PrintStream stream) {
        return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
    }

    /**
     * A cluster that cannot serve is an answer the user needs in one line, not a stack trace; anything else is a
     * bug and keeps its trace (picocli's default handling, status 1).
     */
    private static int clusterFailure(Exception e, CommandLine command, ParseResult parsed) throws Exception {
        if (e instanceof ParameterException refused) {
            // Options checked together once parsed (the TLS files): refused like any bad option, with the usage.
            return command.getParameterExceptionHandler()
                    .handleParseException(refused, parsed.originalArgs().toArray(new String[0]));
        }
        // PermissionDeniedException and AuthenticationException are server errors too.
        if (e instanceof UnavailableException || e instanceof ServerErrorException) {
            command.getErr().println("duro: " + e.getMessage());
            return FAILED;
        }
        if (e instanceof DuroException) {
            command.getErr().println("duro: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return FAILED;
        }
        throw e;
    }
}
