package dev.duro.bench.load;

import dev.duro.server.ServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ./duro bench [options]}: the cluster load generator's command line. Each option is typed, so a bad value
 * is refused naming its option; {@link #options()} adds the defaults that depend on other options and the checks
 * of {@link LoadOptions} that span several.
 */
@Command(
        name = "./duro bench",
        abbreviateSynopsis = true,
        sortOptions = false, // in their "order", as the options were always listed
        description = {
            "The cluster load generator: closed-loop clients, each running one transaction at a time, against a"
                    + " cluster it starts (or --cluster). Results go to result.json and result.csv under --out.",
            ""
        },
        footerHeading = "%nWorkloads (name, source paper, shape; no load phase: a missing balance or list reads as"
                + " 0 or empty):%n")
public final class LoadCommand implements Callable<Integer> {
    private final PrintStream console;

    @Spec
    @Nullable
    private CommandSpec spec;

    private Workload workload = Workload.A;
    private boolean listWorkloads;

    @Option(
            names = "--global",
            order = 2,
            paramLabel = "PCT",
            description = "percentage of global transactions (the workload's default, 0 for most)")
    @Nullable
    private Integer globalPercent;

    @Option(
            names = "--global-partitions",
            order = 3,
            paramLabel = "N",
            description = "partitions per global transaction (${DEFAULT-VALUE})")
    private int globalPartitions = 2;

    @Option(
            names = "--partitions",
            order = 4,
            paramLabel = "P",
            description = "partitions of the cluster it starts (${DEFAULT-VALUE})")
    private int partitions = 2;

    @Option(
            names = "--replicas",
            order = 5,
            paramLabel = "R",
            description = "replicas per partition = nodes it starts (${DEFAULT-VALUE})")
    private int replicas = 3;

    @Option(names = "--clients", order = 6, paramLabel = "N", description = "closed-loop clients (${DEFAULT-VALUE})")
    private int clients = 64;

    @Option(names = "--duration", order = 7, paramLabel = "S", description = "measured seconds (${DEFAULT-VALUE})")
    private int durationSeconds = 20;

    @Option(
            names = "--warmup",
            order = 8,
            paramLabel = "S",
            description = "seconds before measuring (${DEFAULT-VALUE})")
    private int warmupSeconds = 10;

    @Option(
            names = "--jit-settle",
            order = 8,
            paramLabel = "S",
            description = "at most this many seconds more warm-up while the JVMs measured are still compiling"
                    + " (${DEFAULT-VALUE}; 0: none)")
    private int jitSettleSeconds = 180;

    @Option(
            names = "--keys-per-partition",
            order = 9,
            paramLabel = "N",
            description = "distinct keys per partition (${DEFAULT-VALUE})")
    private int keysPerPartition = 100_000;

    @Option(
            names = "--zipf",
            order = 10,
            paramLabel = "S",
            description = "zipfian key skew, 0 for uniform (the workload's default, 0 for most)")
    @Nullable
    private Double zipfSkew;

    @Option(
            names = "--system",
            order = 11,
            paramLabel = "duro|dur|etcd",
            description = {
                "what it starts: duro P x R, dur 1 x (P*R) replicas (classical DUR), etcd with R members (needs"
                        + " /usr/bin/etcd: apt-get install etcd-server) (duro)"
            })
    private SystemKind system = SystemKind.DURO;

    @Option(
            names = "--etcd-client",
            order = 11,
            paramLabel = "go|jetcd",
            description = {
                "with --system etcd, what drives it: go, a lean client process built from benchmarks/etcd-client"
                        + " with the Go toolchain (its CPU is the client CPU), or jetcd inside this JVM (${DEFAULT-VALUE})"
            })
    private String etcdClient = "go";

    @Option(
            names = "--in-process",
            order = 12,
            description = "run the Duro nodes it starts inside the load generator's JVM (by default each node is a"
                    + " process of its own, as ./duro local runs them)")
    private boolean inProcess;

    @Option(
            names = "--async-clients",
            order = 12,
            description = "run each client as a loop of asynchronous transactions on the Duro client's I/O threads"
                    + " rather than as a thread of its own that blocks on each call (Duro and DUR only)")
    private boolean asyncClients;

    @Option(
            names = "--thread-cpu",
            order = 12,
            description = "also account the servers' CPU by component (apply threads, Raft log worker, event loops,"
                    + " collector, ...) from thread dumps of each node at the measured window's edges (the JDK's"
                    + " jcmd); printed per committed tx and written to result.json")
    private boolean threadCpu;

    @Option(
            names = "--profile",
            order = 12,
            description = "record each node with JFR from the warm-up on: profiles/node-<pid>.jfr, and the measured"
                    + " window's samples as .folded (collapsed stacks under their threads' components) and .svg (a"
                    + " flame graph) beside the results; the CPU figures then include the recording's cost. Nodes it"
                    + " starts keep JFR's debug information; start --cluster's nodes with -XX:+UnlockDiagnosticVMOptions"
                    + " -XX:+DebugNonSafepoints for the same")
    private boolean profile;

    @Option(
            names = "--tls",
            order = 12,
            description = "TLS on every link of the Duro nodes it starts, with a throwaway CA, and a client certificate"
                    + " for the load generator (docs/security.md); compare with a run without it")
    private boolean tls;

    @Option(
            names = "--set",
            order = 13,
            paramLabel = "KEY=VALUE",
            description = "a setting of the Duro nodes it starts (README's configuration table); repeatable")
    private Map<String, String> nodeSettings = new TreeMap<>();

    @Option(
            names = "--cluster",
            order = 14,
            paramLabel = "host:port,...",
            description = "drive an existing Duro cluster instead of starting one")
    @Nullable
    private String cluster;

    // Spaces around the commas are allowed, as in "--server-pids '12, 34'".
    @Option(
            names = "--server-pids",
            order = 15,
            paramLabel = "PID",
            split = "\\s*,\\s*",
            splitSynopsisLabel = ",",
            description = "with --cluster: the node processes whose CPU to report (./duro local writes them to"
                    + " data/n*.pid)")
    private List<Long> serverPids = new ArrayList<>();

    @Option(
            names = "--out",
            order = 16,
            paramLabel = "DIR",
            description = "where result.json and result.csv go (benchmarks/results/<timestamp>)")
    @Nullable
    private Path outputDirectory;

    @Option(
            names = {"-h", "--help"},
            order = 17,
            usageHelp = true,
            description = "print this help and exit")
    private boolean help;

    /** A command whose run prints its progress and results to {@code console}. */
    public LoadCommand(PrintStream console) {
        this.console = console;
    }

    // A setter rather than a typed field: "list" is not a workload but asks for the list of them.
    @Option(
            names = "--workload",
            order = 1,
            paramLabel = "NAME",
            defaultValue = "A",
            description = "which workload, listed below; --workload list lists them (${DEFAULT-VALUE})")
    void workload(String name) {
        if (name.equalsIgnoreCase("list")) {
            listWorkloads = true;
            return;
        }
        try {
            workload = Workload.named(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine(), "Invalid value for option '--workload': " + e.getMessage(), e);
        }
    }

    /** A parser for this command alone, its usage ending with the list of workloads. */
    public CommandLine newCommandLine() {
        CommandLine commandLine = CommandLines.configure(new CommandLine(this));
        // The usage formats its footer: a % in a workload's description must reach it as %%.
        commandLine.getCommandSpec().usageMessage().footer(Workload.list().replace("%", "%%"));
        return commandLine;
    }

    /** The options {@code args} give; used where a run is built from flags rather than typed by a user. */
    static LoadOptions parse(String... args) {
        LoadCommand command = new LoadCommand(System.out);
        try {
            command.newCommandLine().parseArgs(args);
            return command.options();
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Whether {@code --workload list} asked for the list of workloads instead of a run. */
    public boolean listWorkloads() {
        return listWorkloads;
    }

    /**
     * The parsed options, with the defaults that depend on other options filled in.
     *
     * @throws ParameterException when the options do not fit together (the message names them)
     */
    public LoadOptions options() {
        // A workload's paper share of global transactions, where the cluster has the partitions for it.
        int global = globalPercent != null
                ? globalPercent
                : partitions >= globalPartitions ? workload.defaultGlobalPercent() : 0;
        Map<String, String> settings = new TreeMap<>();
        nodeSettings.forEach((key, value) -> settings.put(key.trim(), value.trim()));
        try {
            return new LoadOptions(
                    workload,
                    global,
                    globalPartitions,
                    partitions,
                    replicas,
                    clients,
                    Duration.ofSeconds(durationSeconds),
                    Duration.ofSeconds(warmupSeconds),
                    Duration.ofSeconds(jitSettleSeconds),
                    keysPerPartition,
                    zipfSkew != null ? zipfSkew : workload.defaultZipfSkew(),
                    cluster,
                    outputDirectory != null ? outputDirectory : timestampedResults(),
                    system,
                    inProcess,
                    tls,
                    serverPids,
                    settings,
                    etcdThroughJetcd(),
                    asyncClients,
                    threadCpu,
                    profile);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine(), e.getMessage(), e);
        }
    }

    private boolean etcdThroughJetcd() {
        return switch (etcdClient.trim().toLowerCase(Locale.ROOT)) {
            case "go" -> false;
            case "jetcd" -> true;
            default -> throw new IllegalArgumentException(
                    "--etcd-client must be go or jetcd, not '" + etcdClient + "'");
        };
    }

    private static Path timestampedResults() {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        return Path.of("benchmarks", "results", stamp);
    }

    /** Runs the load generator: 0 when transactions committed, 1 when none did, 2 for options that cannot run. */
    @Override
    public Integer call() throws IOException, InterruptedException {
        if (listWorkloads) {
            console.print(Workload.list());
            return 0;
        }
        LoadOptions options = options();
        if (options.system() == SystemKind.ETCD && !EtcdCluster.isInstalled()) {
            commandLine()
                    .getErr()
                    .println("duro bench: --system etcd needs " + EtcdCluster.ETCD_BINARY
                            + ", which is missing. Install Debian's etcd-server package: apt-get install -y"
                            + " etcd-server");
            return 2;
        }
        if ((options.threadCpu() || options.profile()) && !Jcmd.available()) {
            commandLine()
                    .getErr()
                    .println("duro bench: " + (options.threadCpu() ? "--thread-cpu" : "--profile")
                            + " needs the JDK's jcmd, which is missing at " + Jcmd.binary()
                            + ". Run the benchmarks with a JDK (Debian's openjdk-17-jdk-headless)");
            return 2;
        }
        try {
            return new LoadGenerator(options, console).run() ? 0 : 1;
        } catch (ServerConfig.InvalidConfigException e) {
            // A bad --set is found when the first node's configuration is built, before any node starts.
            throw new ParameterException(commandLine(), "--set: " + e.getMessage(), e);
        }
    }

    private CommandLine commandLine() {
        if (spec == null) {
            throw new IllegalStateException("LoadCommand runs through a picocli CommandLine");
        }
        return spec.commandLine();
    }
}
