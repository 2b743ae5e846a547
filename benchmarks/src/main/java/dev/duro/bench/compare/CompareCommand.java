package dev.duro.bench.compare;

import dev.duro.bench.load.CommandLines;
import dev.duro.bench.load.LoadOptions;
import dev.duro.bench.load.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code ./duro bench compare [options]}: the comparison's command line. {@code --quick} changes the defaults of
 * the options not given, wherever it stands, so those options stay unset ({@code null}) until {@link #options()}.
 */
@Command(
        name = "compare",
        abbreviateSynopsis = true,
        sortOptions = false,
        description = {
            "Duro vs classical DUR vs etcd (the S-DUR paper's Figure 3): report.md, plots and raw runs under --out.",
            ""
        },
        footer = {
            "",
            "etcd needs /usr/bin/etcd (Debian package etcd-server); its reads are linearizable unless the JVM runs"
                    + " with -Dduro.bench.etcd.serializable=true",
            "(through ./duro: DURO_JAVA_OPTS=\"-Xmx2g -Dduro.bench.etcd.serializable=true\" ./duro bench compare)."
        })
public final class CompareCommand implements Callable<Integer> {
    private static final List<String> DEFAULT_SYSTEMS = List.of("duro-1x3", "duro-2x3", "dur-1x6", "etcd-3");
    /** Items of a list option: commas, with any spaces around them (and empty items) ignored. */
    private static final String LIST_SEPARATOR = "[\\s,]*,[\\s,]*";

    private final PrintStream console;

    @Spec
    @Nullable
    private CommandSpec spec;

    @Option(
            names = "--workload",
            paramLabel = "A|B|...",
            converter = WorkloadConverter.class,
            description = "workload, as for the load generator (A)")
    private Workload workload = Workload.A;

    @Option(names = "--clients", paramLabel = "N", description = "closed-loop clients, the same for every system (64)")
    @Nullable
    private Integer clients;

    @Option(names = "--duration", paramLabel = "S", description = "measured seconds per run (10)")
    @Nullable
    private Integer durationSeconds;

    @Option(names = "--warmup", paramLabel = "S", description = "seconds before measuring, per run (5)")
    @Nullable
    private Integer warmupSeconds;

    @Option(
            names = "--jit-settle",
            paramLabel = "S",
            description = "at most this many seconds more warm-up per run while the JVMs measured still compile"
                    + " (180; --quick: 0)")
    @Nullable
    private Integer jitSettleSeconds;

    @Option(
            names = "--repetitions",
            paramLabel = "N",
            description = "runs per configuration; median and min-max reported (3)")
    @Nullable
    private Integer repetitions;

    @Option(
            names = "--systems",
            paramLabel = "SYSTEM",
            split = LIST_SEPARATOR,
            splitSynopsisLabel = ",",
            converter = SystemConverter.class,
            description = "duro-PxR, dur-1xN, etcd-N, comma-separated (duro-1x3,duro-2x3,dur-1x6,etcd-3)")
    @Nullable
    private List<SystemSpec> systems;

    @Option(
            names = "--globals",
            paramLabel = "PCT",
            split = LIST_SEPARATOR,
            splitSynopsisLabel = ",",
            description = "percentages of global transactions (0,10,50,100)")
    @Nullable
    private List<Integer> globals;

    @Option(
            names = "--client-sweep",
            paramLabel = "N",
            split = LIST_SEPARATOR,
            splitSynopsisLabel = ",",
            // picocli formats descriptions: a percent sign is written %%
            description = "client counts of the latency-vs-throughput sweep, run once per system at the lowest %%"
                    + " global (8,32,64,128,512; --quick: 8,64)")
    @Nullable
    private List<Integer> clientSweep;

    @Option(names = "--no-client-sweep", description = "leave the latency-vs-throughput sweep out")
    private boolean noClientSweep;

    @Option(
            names = "--keys-per-partition",
            paramLabel = "N",
            description = "distinct keys per partition (${DEFAULT-VALUE})")
    private int keysPerPartition = 100_000;

    @Option(
            names = "--async-clients",
            description = "drive Duro and DUR with the load generator's asynchronous clients (its --async-clients:"
                    + " lean, like etcd's Go client; workloads without scans)")
    private boolean asyncClients;

    @Option(
            names = "--quick",
            description = "smoke run: 1 repetition, 3 s after 2 s warm-up, globals 0,50, client sweep 8,64 (options"
                    + " given explicitly still win)")
    private boolean quick;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "report.md, plots, raw/ (benchmarks/results/<timestamp>)")
    @Nullable
    private Path outputDirectory;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "print this help and exit")
    private boolean help;

    /** A command whose run prints its progress and summary to {@code console}. */
    public CompareCommand(PrintStream console) {
        this.console = console;
    }

    /** The options {@code args} give; see {@link CompareOptions#parse}. */
    static CompareOptions parse(String... args) {
        CompareCommand command = new CompareCommand(System.out);
        try {
            CommandLines.configure(new CommandLine(command)).parseArgs(args);
            return command.options();
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * The parsed options, {@code --quick}'s defaults applied to those not given.
     *
     * @throws ParameterException when the options do not fit together, or would not make a valid load run
     */
    public CompareOptions options() {
        try {
            if (noClientSweep && clientSweep != null) {
                throw new IllegalArgumentException("--client-sweep and --no-client-sweep contradict each other");
            }
            CompareOptions options = new CompareOptions(
                    workload.label(),
                    clients != null ? clients : 64,
                    durationSeconds != null ? durationSeconds : quick ? 3 : 10,
                    warmupSeconds != null ? warmupSeconds : quick ? 2 : 5,
                    jitSettleSeconds != null ? jitSettleSeconds : quick ? 0 : 180,
                    repetitions != null ? repetitions : quick ? 1 : 3,
                    systems != null
                            ? systems
                            : DEFAULT_SYSTEMS.stream().map(SystemSpec::parse).toList(),
                    globals != null ? globals : quick ? List.of(0, 50) : List.of(0, 10, 50, 100),
                    noClientSweep
                            ? List.of()
                            : clientSweep != null ? clientSweep : quick ? List.of(8, 64) : List.of(8, 32, 64, 128, 512),
                    keysPerPartition,
                    asyncClients,
                    outputDirectory != null ? outputDirectory : timestampedResults());
            // Refuses, before anything starts, what the load generator would refuse at the first run.
            LoadOptions.parse(options.loadArgs(options.systems().get(0), 0, options.outputDirectory()));
            return options;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine(), e.getMessage(), e);
        }
    }

    private static Path timestampedResults() {
        String stamp = LocalDateTime.now(ZoneId.systemDefault())
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        return Path.of("benchmarks", "results", stamp);
    }

    /** Runs the comparison; the exit status is {@link CompareMain#run}'s. */
    @Override
    public Integer call() throws IOException, InterruptedException {
        CommandLines.refuseParentOptions(commandLine().getCommandSpec());
        CompareOptions options = options();
        // The report quotes the command as typed: the arguments after "compare".
        List<String> args = commandLine().getParseResult().originalArgs();
        int compare = args.indexOf(commandLine().getCommandName());
        return CompareMain.run(
                options,
                args.subList(compare + 1, args.size()),
                console,
                commandLine().getErr());
    }

    private CommandLine commandLine() {
        if (spec == null) {
            throw new IllegalStateException("CompareCommand runs through a picocli CommandLine");
        }
        return spec.commandLine();
    }

    /** {@code --workload}: a workload's name in any case. */
    static final class WorkloadConverter implements ITypeConverter<Workload> {
        @Override
        public Workload convert(String value) {
            try {
                return Workload.named(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** One item of {@code --systems}. */
    static final class SystemConverter implements ITypeConverter<SystemSpec> {
        @Override
        public SystemSpec convert(String value) {
            try {
                return SystemSpec.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
