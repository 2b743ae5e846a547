package dev.duro.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.bench.load.StoreJvmOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import picocli.CommandLine;

/** {@code ./duro bench} as a user meets it: help, refusals and the subcommands, without running any load. */
class BenchMainTest {
    /** What one command line printed and the exit status it would end with. */
    private record Outcome(int status, String out, String err) {}

    private static Outcome run(String... args) {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine bench = BenchMain.commandLine(new PrintStream(console, true, StandardCharsets.UTF_8));
        bench.setOut(new PrintWriter(out, true));
        bench.setErr(new PrintWriter(err, true));
        int status = bench.execute(args);
        return new Outcome(status, console.toString(StandardCharsets.UTF_8) + out, err.toString());
    }

    @Test
    void helpListsEveryOptionTheSubcommandsAndTheWorkloads() {
        Outcome help = run("--help");
        assertEquals(0, help.status());
        for (String option : List.of(
                "--workload",
                "--global",
                "--global-partitions",
                "--partitions",
                "--replicas",
                "--clients",
                "--duration",
                "--warmup",
                "--jit-settle",
                "--keys-per-partition",
                "--zipf",
                "--system",
                "--in-process",
                "--async-clients",
                "--set",
                "--cluster",
                "--server-pids",
                "--out",
                "compare",
                "micro",
                "ycsb-a")) {
            assertTrue(help.out().contains(option), option + " missing from:\n" + help.out());
        }
        assertTrue(help.out().contains("measured seconds (20)"), help.out());
        assertTrue(help.out().contains("50% timeline (read-only)"), "the workload list, % and all:\n" + help.out());
        assertTrue(help.out().indexOf("--workload") < help.out().indexOf("--global"), "options in their old order");
        assertEquals("", help.err());
    }

    @Test
    void compareHelpListsItsOwnOptions() {
        // picocli warns on the process's own error stream when it cannot format a description
        PrintStream originalErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        Outcome help;
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            help = run("compare", "--help");
        } finally {
            System.setErr(originalErr);
        }
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
        assertTrue(help.out().replaceAll("\\s+", " ").contains("at the lowest % global"), help.out());
        assertEquals(0, help.status());
        for (String option : List.of(
                "--client-sweep",
                "--no-client-sweep",
                "--workload",
                "--clients",
                "--duration",
                "--warmup",
                "--jit-settle",
                "--repetitions",
                "--systems",
                "--globals",
                "--keys-per-partition",
                "--quick",
                "--out")) {
            assertTrue(help.out().contains(option), option + " missing from:\n" + help.out());
        }
    }

    @Test
    void aBadValueNamesTheOptionShowsTheUsageAndExitsWithTwoWithoutAStackTrace() {
        Outcome bad = run("--duration", "abc");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("'--duration'") && bad.err().contains("'abc'"), bad.err());
        assertTrue(bad.err().contains("Usage: ./duro bench"), bad.err());
        assertFalse(bad.err().contains("Exception") || bad.err().contains("\tat "), bad.err());
        assertEquals("", bad.out());
    }

    @Test
    void optionsThatDoNotFitTogetherAreRefusedTheSameWay() {
        Outcome bad = run("--server-pids", "12");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--server-pids names the nodes of --cluster"), bad.err());
        assertTrue(bad.err().contains("Usage: ./duro bench"), bad.err());
    }

    @Test
    void compareRefusesABadValueNamingTheOption() {
        Outcome bad = run("compare", "--globals", "0,ten");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("'--globals'") && bad.err().contains("'ten'"), bad.err());
        assertTrue(bad.err().contains("Usage: ./duro bench compare"), bad.err());

        Outcome system = run("compare", "--systems", "duro-2x3,mysql");
        assertEquals(2, system.status());
        assertTrue(system.err().contains("'--systems'") && system.err().contains("mysql"), system.err());
    }

    @Test
    void loadGeneratorOptionsBeforeASubcommandAreRefusedRatherThanDropped() {
        Outcome misplaced = run("--clients", "8", "compare", "--quick");
        assertEquals(2, misplaced.status());
        assertTrue(misplaced.err().contains("options before 'compare'"), misplaced.err());
    }

    @Test
    void workloadListPrintsTheWorkloads() {
        Outcome list = run("--workload", "list");
        assertEquals(0, list.status());
        assertTrue(list.out().contains("ycsb-c"), list.out());
        assertTrue(list.out().contains("tpcb"), list.out());
    }

    /**
     * The micro suite's forks take the options of a JVM that holds a store, as the nodes do, and the options given with
     * -jvmArgsAppend after them, so that those win; the suite's defaults apply where the command line gives none.
     */
    @Test
    void microForksRunAsTheNodesDoAndTheGivenOptionsWin() throws CommandLineOptionException {
        List<String> store = StoreJvmOptions.of(17, true);
        Options given = MicroSuite.options(
                        new CommandLineOptions(
                                "Certification", "-wi", "4", "-jvmArgsAppend", "-XX:-UseTransparentHugePages -Xmx2g"),
                        store)
                .build();
        List<String> expected = new ArrayList<>(store);
        expected.addAll(List.of("-XX:-UseTransparentHugePages", "-Xmx2g"));
        List<String> forks = List.copyOf(given.getJvmArgsAppend().get());
        assertEquals(expected, forks);
        assertTrue(forks.containsAll(StoreJvmOptions.G1_REFINEMENT_IN_PAUSES), "refinement in the pauses");
        assertEquals(4, given.getWarmupIterations().get(), "the given option");
        assertEquals(1, given.getForkCount().get(), "the suite's default");

        Options bare = MicroSuite.options(new CommandLineOptions("Certification"), store)
                .build();
        assertEquals(store, List.copyOf(bare.getJvmArgsAppend().get()), "the store's options alone");
    }

    @Test
    void microPassesEveryArgumentToJmhAsGiven() {
        CommandLine bench = BenchMain.commandLine(System.out);
        CommandLine.ParseResult parsed =
                bench.parseArgs("micro", "Certification", "-f", "2", "-wi", "1", "-h", "--foo=bar");
        MicroSuite.MicroCommand micro =
                parsed.subcommand().commandSpec().commandLine().getCommand();
        assertEquals(List.of("Certification", "-f", "2", "-wi", "1", "-h", "--foo=bar"), micro.jmhArguments());
    }
}
