package dev.duro.bench;

import dev.duro.bench.compare.CompareCommand;
import dev.duro.bench.load.CommandLines;
import dev.duro.bench.load.LoadCommand;
import java.io.PrintStream;
import picocli.CommandLine;

/**
 * {@code ./duro bench ...}: the cluster load generator ({@link LoadCommand}), with the subcommands {@code compare}
 * (the Duro / DUR / etcd comparison, {@link CompareCommand}) and {@code micro} (the JMH suite, {@link MicroSuite}).
 * {@code --help} prints the generated usage; a bad option or value prints what is wrong, naming the option, and
 * the usage, and exits with status 2.
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        System.exit(commandLine(System.out).execute(args));
    }

    /** The whole {@code ./duro bench} command line, runs reporting to {@code console}. */
    static CommandLine commandLine(PrintStream console) {
        CommandLine bench = new LoadCommand(console).newCommandLine();
        bench.addSubcommand(new CompareCommand(console));
        CommandLine micro = new CommandLine(new MicroSuite.MicroCommand(console));
        // JMH's options (-f 1, -wi 2, -h ...) are arguments to pass through, not options of ours.
        micro.setUnmatchedOptionsArePositionalParams(true);
        bench.addSubcommand(micro);
        return CommandLines.configure(bench);
    }
}
