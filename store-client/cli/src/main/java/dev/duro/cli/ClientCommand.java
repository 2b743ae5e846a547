package dev.duro.cli;

import dev.duro.client.DuroClient;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * A command against a cluster: the options every one of them takes ({@code --cluster}, TLS, {@code --user} with its
 * password, {@code --help}), refused naming the option when they do not fit together, then {@link #run} with a
 * client that it closes. A cluster that cannot serve is not handled here: {@link DuroCli} answers it in one line.
 */
abstract class ClientCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec = CommandSpec.create();

    @Option(
            names = "--cluster",
            paramLabel = "HOST:PORT,...",
            converter = Seeds.class,
            description = "any nodes of the cluster; the rest is discovered (default: ${DEFAULT-VALUE})")
    String cluster = DuroCli.DEFAULT_CLUSTER;

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
}
