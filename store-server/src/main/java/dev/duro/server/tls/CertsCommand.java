package dev.duro.server.tls;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./duro certs --dir DIR --nodes n1,n2,n3 [--clients NAME,...] [--days N]}: writes a cluster's certificates
 * as PEM files (docs/security.md, "Certificates"): {@code ca.pem} and {@code ca-key.pem}, and per node or client
 * {@code <name>.pem} and {@code <name>-key.pem}. A CA already in the folder is kept and issues the new certificates
 * (that is how certificates are rotated); otherwise a new one is made.
 */
@Command(
        name = "duro certs",
        description = "Writes a cluster's TLS certificates (PEM): ca.pem and ca-key.pem (kept if present: the CA"
                + " issues the new certificates), and <id>.pem and <id>-key.pem per node (CN=node:<id>) and per"
                + " client (CN=<name>). For development and tests; production certificates come from your own CA,"
                + " with the same names (docs/security.md).")
public final class CertsCommand implements Callable<Integer> {
    /** The CA certificate's file name in the folder. */
    public static final String CA_FILE = "ca.pem";
    /** The CA key's file name in the folder. */
    public static final String CA_KEY_FILE = "ca-key.pem";

    /** A bad command line; nothing was written. */
    static final int BAD_USAGE = 2;

    private static final Duration BACKDATE = Duration.ofMinutes(5); // tolerates clocks a little behind this one's

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "the folder to write to")
    private Path directory = Path.of("");

    @Option(
            names = "--nodes",
            required = true,
            split = ",",
            paramLabel = "ID",
            description = "node ids (as in cluster.nodes), comma-separated")
    private List<String> nodes = new ArrayList<>();

    @Option(
            names = "--clients",
            split = ",",
            paramLabel = "NAME",
            description = "client names, comma-separated (each becomes the principal CN=<name>)")
    private List<String> clients = new ArrayList<>();

    @Option(
            names = "--days",
            paramLabel = "N",
            description = "validity of the new node and client certificates in days (default ${DEFAULT-VALUE}; a new"
                    + " CA gets ten times as long)")
    private int days = 365;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help and exit")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private final PrintStream out;

    private CertsCommand(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(commandLine(System.out, System.err).execute(args));
    }

    /** The command line, with its output on {@code out} and its errors and usage on {@code err}. */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        return new CommandLine(new CertsCommand(out))
                .setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true))
                .setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    }

    @Override
    public Integer call() throws IOException {
        CommandLine commandLine = spec.commandLine();
        if (days < 1 || days > 36_500) {
            throw new CommandLine.ParameterException(commandLine, "--days must be in [1, 36500], was " + days);
        }
        for (String name : nodes) {
            if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new CommandLine.ParameterException(
                        commandLine, "--nodes: invalid node id '" + name + "' (letters, digits, - and _)");
            }
        }
        for (String name : clients) {
            if (!name.matches("[A-Za-z0-9_.@-]{1,64}") || name.startsWith(PeerIdentity.NODE_PREFIX)) {
                throw new CommandLine.ParameterException(
                        commandLine, "--clients: invalid client name '" + name + "' (letters, digits, . @ - _)");
            }
        }
        Set<String> names = new LinkedHashSet<>(nodes);
        for (String name : clients) {
            if (!names.add(name) || name.equals("ca")) {
                throw new CommandLine.ParameterException(
                        commandLine, "'" + name + "' is named twice (or is 'ca'): each name is one pair of files");
            }
        }
        Instant now = Instant.now();
        write(directory, nodes, clients, now.minus(BACKDATE), now.plus(Duration.ofDays(days)), out);
        return 0;
    }

    /**
     * Writes the certificates valid in {@code [notBefore, notAfter]}, with the folder's CA if it has one, else a new
     * CA; reports each file on {@code report}.
     */
    public static void write(
            Path directory,
            List<String> nodes,
            List<String> clients,
            Instant notBefore,
            Instant notAfter,
            PrintStream report)
            throws IOException {
        Files.createDirectories(directory);
        Certificates.Issued authority = authority(directory, notBefore, notAfter, report);
        for (String node : nodes) {
            Certificates.write(
                    Certificates.issueNode(authority, node, notBefore, notAfter),
                    directory.resolve(node + ".pem"),
                    directory.resolve(node + "-key.pem"));
            report.println("duro certs: " + directory.resolve(node + ".pem") + " (CN=" + PeerIdentity.NODE_PREFIX + node
                    + ", until " + notAfter + ")");
        }
        for (String client : clients) {
            Certificates.write(
                    Certificates.issueClient(authority, client, notBefore, notAfter),
                    directory.resolve(client + ".pem"),
                    directory.resolve(client + "-key.pem"));
            report.println("duro certs: " + directory.resolve(client + ".pem") + " (CN=" + client + ", until "
                    + notAfter + ")");
        }
    }

    /** The folder's CA, or a new one written there. */
    public static Certificates.Issued authority(Path directory, Instant notBefore, Instant notAfter, PrintStream report)
            throws IOException {
        Path certificate = directory.resolve(CA_FILE);
        Path key = directory.resolve(CA_KEY_FILE);
        if (Files.exists(certificate) && Files.exists(key)) {
            report.println("duro certs: issuing with the existing CA " + certificate);
            return new Certificates.Issued(
                    TlsMaterial.certificates("CA", certificate).get(0), TlsMaterial.privateKey("CA key", key));
        }
        Instant caNotAfter =
                notBefore.plus(Duration.between(notBefore, notAfter).multipliedBy(10));
        Certificates.Issued authority = Certificates.newAuthority("duro-ca", notBefore, caNotAfter);
        Certificates.write(authority, certificate, key);
        report.println(
                "duro certs: new CA " + certificate + " (key " + key + ": keep it secret, until " + caNotAfter + ")");
        return authority;
    }
}
