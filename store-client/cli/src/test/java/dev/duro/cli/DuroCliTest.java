package dev.duro.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.client.KeyValue;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The {@code ./duro} client command line as a user meets it: defaults, refusals that name the option, help. */
class DuroCliTest {
    private static final String[] COMMANDS = {"put", "get", "scan", "shell", "demo", "status", "await-ready"};

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void everyCommandStartsFromTheNodesOfDuroLocalByDefault() {
        for (String[] args : new String[][] {
            {"put", "k", "v"}, {"get", "k"}, {"scan", "a", "b"}, {"shell"}, {"demo"}, {"status"}, {"await-ready"}
        }) {
            ParseResult command = parse(args).subcommand();
            assertEquals(DuroCli.DEFAULT_CLUSTER, optionValue(command, "--cluster"), String.join(" ", args));
        }
    }

    @Test
    void theDemoRunsTwentySecondsAndAwaitReadyWaitsAMinuteUnlessTold() {
        assertEquals(20, ((DemoCommand) command(parse("demo"))).seconds);
        assertEquals(60, ((AwaitReadyCommand) command(parse("await-ready"))).timeoutSeconds);
        assertEquals(5, ((DemoCommand) command(parse("demo", "--seconds", "5"))).seconds);
        assertEquals(7, ((AwaitReadyCommand) command(parse("await-ready", "--timeout-seconds=7"))).timeoutSeconds);
    }

    @Test
    void optionsMayFollowOrPrecedeTheArguments() {
        PutCommand put = (PutCommand) command(parse("put", "--cluster", "10.0.0.1:7100", "k", "v"));
        assertEquals("10.0.0.1:7100", put.cluster);
        assertEquals("k", put.key);
        assertEquals("v", put.value);
    }

    @Test
    void aCountThatIsNotANumberIsRefusedNamingItsOptionWithTheUsageAndStatus2() {
        assertEquals(2, run("demo", "--seconds", "abc"));
        assertRefused("Invalid value for option '--seconds': 'abc' is not an int", "Usage: duro demo");

        err.reset();
        assertEquals(2, run("await-ready", "--timeout-seconds", "soon"));
        assertRefused("Invalid value for option '--timeout-seconds'", "Usage: duro await-ready");
    }

    @Test
    void aCountBelowOneIsRefusedNamingItsOption() {
        assertEquals(2, run("demo", "--seconds", "0"));
        assertRefused("Invalid value for option '--seconds': 0 is below 1", "Usage: duro demo");
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:port", ",", "host:99999"})
    void aClusterThatIsNotAListOfHostAndPortIsRefusedNamingTheOption(String cluster) {
        assertEquals(2, run("get", "--cluster", cluster, "k"));
        assertRefused("Invalid value for option '--cluster'", "Usage: duro get");
    }

    @Test
    void everyCommandTakesTheTlsFiles() {
        for (String[] args : new String[][] {
            {"put", "k", "v"}, {"get", "k"}, {"scan", "a", "b"}, {"shell"}, {"demo"}, {"status"}, {"await-ready"}
        }) {
            String[] withTls = java.util.Arrays.copyOf(args, args.length + 6);
            System.arraycopy(
                    new String[] {"--tls-ca", "ca.pem", "--tls-cert", "me.pem", "--tls-key", "me-key.pem"},
                    0,
                    withTls,
                    args.length,
                    6);
            ParseResult command = parse(withTls).subcommand();
            assertEquals("ca.pem", String.valueOf(optionValue(command, "--tls-ca")), args[0]);
            assertEquals("me-key.pem", String.valueOf(optionValue(command, "--tls-key")), args[0]);
        }
    }

    @Test
    void tlsOptionsThatDoNotFitTogetherAreRefusedNamingThem() {
        assertEquals(2, run("get", "--tls-cert", "me.pem", "--tls-key", "me-key.pem", "k"));
        assertRefused("--tls-cert and --tls-key need --tls-ca", "Usage: duro get");
        err.reset();
        assertEquals(2, run("get", "--tls-ca", "ca.pem", "--tls-cert", "me.pem", "k"));
        assertRefused("--tls-cert and --tls-key go together", "Usage: duro get");
        err.reset();
        assertEquals(2, run("get", "--tls-ca", "no-such-ca.pem", "k"), () -> err.toString(StandardCharsets.UTF_8));
        assertRefused("the CA file no-such-ca.pem cannot be read", "Usage: duro get");
    }

    @Test
    void scanTakesARangeALimitAndADirection() {
        ScanCommand scan = (ScanCommand) command(parse("scan", "user/", "user0", "--limit", "5", "--desc"));
        assertEquals(new KeyRange(Bytes.utf8("user/"), Bytes.utf8("user0")), scan.range());
        assertEquals(5, scan.limit);
        assertTrue(scan.descending);
        ScanCommand defaults = (ScanCommand) command(parse("scan", "a", ""));
        assertEquals(new KeyRange(Bytes.utf8("a"), null), defaults.range());
        assertEquals(1_000, defaults.limit);
        ScanCommand prefix = (ScanCommand) command(parse("scan", "--prefix", "user/"));
        assertEquals(KeyRange.prefix(Bytes.utf8("user/")), prefix.range());
    }

    @Test
    void scanPrintsOneKeyValueLinePerKeyInOrder() {
        PrintStream printed = new PrintStream(out, true, StandardCharsets.UTF_8);
        ScanCommand.print(
                List.of(
                        new KeyValue(Bytes.utf8("a"), Bytes.utf8("1")),
                        new KeyValue(Bytes.utf8("b"), Bytes.utf8("two"))),
                printed);
        assertEquals("a 1" + System.lineSeparator() + "b two" + System.lineSeparator(), stdout());
    }

    @Test
    void aScanWithoutARangeOrWithTwoIsRefusedBeforeConnecting() {
        assertEquals(2, run("scan", "a"));
        assertRefused("Missing required parameters: FROM TO (or --prefix P)", "Usage: duro scan");
        err.reset();
        assertEquals(2, run("scan", "a", "b", "--prefix", "p"));
        assertRefused("give either FROM TO or --prefix, not both", "Usage: duro scan");
        err.reset();
        assertEquals(2, run("scan", "b", "a"));
        assertRefused("TO 'a' must sort after FROM 'b'", "Usage: duro scan");
        err.reset();
        assertEquals(2, run("scan", "a", "b", "--limit", "0"));
        assertRefused("Invalid value for option '--limit': 0 is below 1", "Usage: duro scan");
    }

    @Test
    void aMissingArgumentIsNamed() {
        assertEquals(2, run("put", "k"));
        assertRefused("Missing required parameter: 'VALUE'", "Usage: duro put");
    }

    @Test
    void anOptionOfAnotherCommandIsRefused() {
        assertEquals(2, run("get", "--seconds", "5", "k"));
        assertRefused("Unknown options: '--seconds'", "Usage: duro get");
    }

    @Test
    void withoutACommandItPrintsTheCommandsAndExitsWith2() {
        assertEquals(2, run());
        assertRefused("Missing required subcommand", "await-ready");
    }

    @Test
    void anUnknownCommandIsNamed() {
        assertEquals(2, run("remove", "k"));
        assertRefused("Unmatched arguments from index 0: 'remove', 'k'", "await-ready");
    }

    @Test
    void everyCommandPrintsItsHelpOnStandardOutputAndExitsWith0() {
        for (String name : COMMANDS) {
            out.reset();
            assertEquals(0, run(name, "--help"), name);
            assertTrue(stdout().startsWith("Usage: duro " + name + " "), stdout());
            assertTrue(stdout().contains("--cluster=HOST:PORT,..."), stdout());
        }
        out.reset();
        assertEquals(0, run("--help"));
        for (String name : COMMANDS) {
            assertTrue(stdout().contains("  " + name + " "), name + " missing from " + stdout());
        }
        assertEquals("", stderr());
    }

    @Test
    void aClusterThatDoesNotAnswerIsOneLineOnStandardErrorWithStatus2() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        assertEquals(2, run("get", "--cluster", "127.0.0.1:" + closedPort, "k"));
        assertTrue(stderr().startsWith("duro: "), stderr());
        assertEquals(1, stderr().lines().count(), stderr());
        assertEquals("", stdout());
    }

    @Test
    void adminCommandsTakeTheirArgumentsAsGivenAndEveryClientCommandTakesAUser() {
        Admin.Leaf grant = (Admin.Leaf) command(parse("admin", "role", "grant", "app-writer", "readwrite", "app/")
                .subcommand()
                .subcommand());
        assertEquals(java.util.List.of("app-writer", "readwrite", "app/"), grant.arguments);
        GetCommand get = (GetCommand) command(parse("get", "--user", "alice", "--password-file", "pw", "k"));
        assertEquals("alice", get.user);
        assertEquals(java.nio.file.Path.of("pw"), get.passwordFile);
        Admin.UserAdd add = (Admin.UserAdd) command(parse("admin", "user", "add", "bob", "--no-password")
                .subcommand()
                .subcommand());
        assertTrue(add.noPassword);
    }

    @Test
    void aPasswordFileThatIsMissingOrWithoutAUserIsRefusedNamingTheOption() {
        assertEquals(2, run("get", "--user", "alice", "--password-file", "/nonexistent/duro-pw", "k"));
        assertRefused("Invalid value for option '--password-file': no file /nonexistent/duro-pw", "Usage: duro get");
        err.reset();
        assertEquals(2, run("get", "--password-file", "/nonexistent/duro-pw", "k"));
        assertRefused("--password-file needs --user", "Usage: duro get");
    }

    @Test
    void adminWithoutACommandNamesTheCommandsAndHelpListsThem() {
        assertEquals(2, run("admin"));
        assertRefused("Missing required subcommand", "auth");
        assertEquals(0, run("admin", "role", "grant", "--help"));
        assertTrue(stdout().contains("Arguments: ROLE read|readwrite"), stdout());
    }

    private int run(String... args) {
        return commandLine().execute(args);
    }

    private ParseResult parse(String... args) {
        return commandLine().parseArgs(args);
    }

    private CommandLine commandLine() {
        return DuroCli.commandLine(
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static Object command(ParseResult parsed) {
        return parsed.subcommand().commandSpec().userObject();
    }

    private static Object optionValue(ParseResult command, String option) {
        return command.commandSpec().findOption(option).getValue();
    }

    private void assertRefused(String message, String usage) {
        String printed = stderr();
        assertTrue(printed.startsWith(message), printed);
        assertTrue(printed.contains(usage), printed);
        assertFalse(printed.contains("Exception"), "no stack trace: " + printed);
        assertEquals("", stdout());
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
