package dev.duro.cli;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.KeyValue;
import dev.duro.client.ReadConsistency;
import dev.duro.client.ScanOrder;
import dev.duro.client.ServerErrorException;
import dev.duro.client.UnavailableException;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.KeyRange;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The client side of {@code ./duro}: {@code put}, {@code get}, {@code scan}, {@code shell}, {@code demo}, {@code status},
 * {@code await-ready} and {@code admin}. Every command takes {@code --cluster host:port,...} (default: the three
 * nodes of {@code ./duro local}), {@code --user} and {@code --password-file} (docs/auth.md), and {@code --help}.
 *
 * <p>Exit status: 0 on success; 1 when the answer is "no" ({@code get} of a missing key, replicas that diverged,
 * a demo whose audit saw a wrong total); 2 for a bad command line (picocli names the option and prints the usage)
 * and for a request the cluster could not serve (one line on standard error, no stack trace).
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
                .addSubcommand(new Put(out))
                .addSubcommand(new Get(out, err))
                .addSubcommand(new Scan(out, err))
                .addSubcommand(new ShellCommand(in, out))
                .addSubcommand(new DemoCommand(out))
                .addSubcommand(new Status(out))
                .addSubcommand(new AwaitReady(out))
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

    /** A command against a cluster: the shared options, then {@link #run} with a client that it closes. */
    abstract static class ClientCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec = CommandSpec.create();

        @Option(
                names = "--cluster",
                paramLabel = "HOST:PORT,...",
                converter = Seeds.class,
                description = "any nodes of the cluster; the rest is discovered (default: ${DEFAULT-VALUE})")
        String cluster = DEFAULT_CLUSTER;

        @Option(
                names = "--tls-ca",
                paramLabel = "FILE",
                description = "speak TLS 1.3, trusting nodes whose certificate this CA (PEM) issued (docs/security.md)")
        @Nullable
        Path tlsCa;

        @Option(
                names = "--tls-cert",
                paramLabel = "FILE",
                description = "with --tls-ca: this client's certificate (PEM; CN = its name), with --tls-key")
        @Nullable
        Path tlsCert;

        @Option(names = "--tls-key", paramLabel = "FILE", description = "with --tls-cert: its private key (PEM)")
        @Nullable
        Path tlsKey;

        @Option(
                names = {"-h", "--help"},
                usageHelp = true,
                description = "show this help and exit")
        boolean help;

        @Option(
                names = "--user",
                paramLabel = "NAME",
                description = "authenticate as this user (needed once auth is enabled; docs/auth.md)")
        String user;

        @Option(
                names = "--password-file",
                paramLabel = "FILE",
                description = "the user's password: the file's first line (without --password-file, --user asks"
                        + " for it on the terminal, or reads the first line of standard input)")
        Path passwordFile;

        /** Reads a password when there is no terminal: the first line of standard input. */
        InputStream passwordInput = System.in;

        @Override
        public final Integer call() {
            validate();
            DuroClient.Builder builder = builder();
            if (passwordFile != null && user == null) {
                throw new ParameterException(spec.commandLine(), "--password-file needs --user");
            }
            if (user != null) {
                char[] password = Passwords.read(
                        spec.commandLine(), passwordFile, "--password-file", "password for " + user, passwordInput);
                builder.credentials(user, password);
                Arrays.fill(password, '\0');
            }
            DuroClient built;
            try {
                built = builder.build();
            } catch (IllegalArgumentException e) { // a TLS file that cannot be used: the message names it
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            try (DuroClient client = built) {
                return run(client);
            }
        }

        /** The client the options describe; TLS options that do not fit together are refused naming them. */
        private DuroClient.Builder builder() {
            DuroClient.Builder builder = DuroClient.builder().seeds(cluster);
            if (tlsCa == null) {
                if (tlsCert != null || tlsKey != null) {
                    throw new ParameterException(
                            spec.commandLine(), "--tls-cert and --tls-key need --tls-ca (the cluster's CA)");
                }
                return builder;
            }
            if ((tlsCert == null) != (tlsKey == null)) {
                throw new ParameterException(
                        spec.commandLine(), "--tls-cert and --tls-key go together (the certificate and its key)");
            }
            return builder.tls(tlsCa, tlsCert, tlsKey);
        }

        /** Refuses a command line whose options do not fit together, before any connection is made. */
        void validate() {}

        /** Runs the command; returns the exit status. */
        abstract int run(DuroClient client);

        /** Refuses a count below one, naming the option, as picocli refuses one that is not a number. */
        final int atLeastOne(int value, String option) {
            if (value < 1) {
                throw new ParameterException(
                        spec.commandLine(), "Invalid value for option '" + option + "': " + value + " is below 1");
            }
            return value;
        }
    }

    /**
     * Reads {@code --cluster} as the client will, so that a bad address is refused at parse time, naming the option,
     * rather than later as a stack trace.
     */
    static final class Seeds implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (value.replace(",", "").isBlank()) {
                throw new TypeConversionException("names no node; give host:port,...");
            }
            try {
                DuroClient.builder().seeds(value);
            } catch (IllegalArgumentException e) { // NumberFormatException included: a port that is not a number
                throw new TypeConversionException(
                        "'" + value + "' is not a list of host:port (" + e.getMessage() + ")");
            }
            return value;
        }
    }

    @Command(name = "put", description = "Writes one key in its own transaction; prints OK.")
    static final class Put extends ClientCommand {
        private final PrintStream out;

        @Parameters(index = "0", paramLabel = "KEY", description = "the key, as UTF-8 text")
        String key = "";

        @Parameters(index = "1", paramLabel = "VALUE", description = "its new value, as UTF-8 text")
        String value = "";

        Put(PrintStream out) {
            this.out = out;
        }

        @Override
        int run(DuroClient client) {
            client.put(key, value);
            out.println("OK");
            return 0;
        }
    }

    @Command(
            name = "get",
            description = "Reads one key and prints its value; a missing key prints '(not found)' on standard error"
                    + " and exits with 1.")
    static final class Get extends ClientCommand {
        private final PrintStream out;
        private final PrintStream err;

        @Parameters(index = "0", paramLabel = "KEY", description = "the key, as UTF-8 text")
        String key = "";

        Get(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        int run(DuroClient client) {
            String value = client.get(key);
            if (value == null) {
                err.println("(not found)");
                return NO;
            }
            out.println(value);
            return 0;
        }
    }

    @Command(
            name = "scan",
            description = "Prints the keys of [FROM, TO) in order, one 'key value' line each, read at one consistent"
                    + " cut that includes every commit acknowledged before (a linearizable read-only transaction); or"
                    + " those starting with --prefix. TO may be \"\" for the end"
                    + " of the key space. When the limit stops the scan, a note on standard error says so.")
    static final class Scan extends ClientCommand {
        private final PrintStream out;
        private final PrintStream err;

        @Parameters(index = "0", arity = "0..1", paramLabel = "FROM", description = "the first key, inclusive")
        String from;

        @Parameters(index = "1", arity = "0..1", paramLabel = "TO", description = "the end, exclusive (\"\": none)")
        String to;

        @Option(names = "--prefix", paramLabel = "P", description = "every key starting with P, instead of FROM TO")
        String prefix;

        @Option(names = "--desc", description = "from the end of the range down")
        boolean descending;

        int limit = 1_000;

        Scan(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "1000",
                description = "at most N keys (default: ${DEFAULT-VALUE})")
        void limit(int value) {
            limit = atLeastOne(value, "--limit");
        }

        /** The range asked for, refusing a command line that names none or two. */
        KeyRange range() {
            if (prefix != null) {
                if (from != null) {
                    throw new ParameterException(spec.commandLine(), "give either FROM TO or --prefix, not both");
                }
                return KeyRange.prefix(Bytes.utf8(prefix));
            }
            if (from == null || to == null) {
                throw new ParameterException(
                        spec.commandLine(), "Missing required parameters: FROM TO (or --prefix P)");
            }
            Bytes start = Bytes.utf8(from);
            Bytes end = to.isEmpty() ? null : Bytes.utf8(to);
            if (end != null && start.compareTo(end) >= 0) {
                throw new ParameterException(
                        spec.commandLine(), "TO '" + to + "' must sort after FROM '" + from + "' (or be \"\")");
            }
            return new KeyRange(start, end);
        }

        @Override
        void validate() {
            range();
        }

        @Override
        int run(DuroClient client) {
            KeyRange range = range();
            ScanOrder order = descending ? ScanOrder.DESCENDING : ScanOrder.ASCENDING;
            // Linearizable: a scan right after a put by another process (another client) shows it.
            List<KeyValue> found = client.readOnly(ReadConsistency.LINEARIZABLE, ro -> ro.scan(range, limit, order));
            print(found, out);
            if (found.size() == limit) {
                err.println("(stopped at --limit " + limit + "; more keys may follow)");
            }
            return 0;
        }

        /** One {@code key value} line per key, in the scan's order. */
        static void print(List<KeyValue> found, PrintStream out) {
            for (KeyValue entry : found) {
                out.println(entry.keyText() + " " + entry.valueText());
            }
        }
    }

    @Command(
            name = "shell",
            description = "An interactive prompt: begin, get, put, delete, scan FROM TO [LIMIT], scanprefix P [LIMIT],"
                    + " commit, rollback, exit. Outside begin ... commit each get, put and scan is a transaction of its"
                    + " own.")
    static final class ShellCommand extends ClientCommand {
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

    @Command(
            name = "demo",
            description = "The demo workload: transfers between accounts on every partition while an auditor checks"
                    + " the total; exits with 1 if an audit saw a wrong total.")
    static final class DemoCommand extends ClientCommand {
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
            return new Demo(client, Duration.ofSeconds(seconds), out).run() ? 0 : NO;
        }
    }

    @Command(
            name = "status",
            description = "Every partition's replicas: role, term, commit and applied index, lag, SC, pending, digest,"
                    + " and whether they agree; exits with 1 if the replicas of a partition diverged.")
    static final class Status extends ClientCommand {
        private final PrintStream out;

        Status(PrintStream out) {
            this.out = out;
        }

        @Override
        int run(DuroClient client) {
            return new StatusReport(client.refreshCluster(), client::replicaStatus).print(out);
        }
    }

    @Command(
            name = "await-ready",
            description = "Waits until the cluster serves (every partition has a leader and a linearizable read"
                    + " succeeds), then prints one line; exits with 2 if it does not within the timeout.")
    static final class AwaitReady extends ClientCommand {
        private final PrintStream out;
        int timeoutSeconds = 60;

        AwaitReady(PrintStream out) {
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
}
