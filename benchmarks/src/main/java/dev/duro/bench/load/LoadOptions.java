package dev.duro.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Options of the load generator. Defaults reproduce the S-DUR paper's setup at a size this machine runs: two
 * partitions of three replicas, workload A, closed-loop clients. The constructor checks what one option cannot
 * check alone, naming the options; {@link LoadCommand} parses the command line into them.
 */
public record LoadOptions(
        Workload workload,
        int globalPercent,
        int globalPartitions,
        int partitions,
        int replicas,
        int clients,
        Duration duration,
        Duration warmup,
        Duration jitSettleMax,
        int keysPerPartition,
        double zipfSkew,
        @Nullable String cluster,
        Path outputDirectory,
        SystemKind system,
        boolean inProcess,
        boolean tls,
        List<Long> serverPids,
        Map<String, String> nodeSettings,
        boolean etcdThroughJetcd,
        boolean asyncClients,
        boolean threadCpu,
        boolean profile) {
    public LoadOptions {
        require(globalPercent >= 0 && globalPercent <= 100, "--global must be in [0, 100]");
        require(globalPartitions >= 2, "--global-partitions must be >= 2");
        require(partitions >= 1, "--partitions must be >= 1");
        // Unpartitioned systems run the same key choice with every transaction local, so any --global is fine.
        require(
                system != SystemKind.DURO || globalPercent == 0 || globalPartitions <= partitions,
                "--global-partitions exceeds --partitions");
        require(cluster == null || system == SystemKind.DURO, "--cluster drives an existing Duro; drop --system");
        require(serverPids.isEmpty() || cluster != null, "--server-pids names the nodes of --cluster");
        require(!inProcess || (cluster == null && system != SystemKind.ETCD), "--in-process starts Duro nodes");
        require(!tls || (cluster == null && system != SystemKind.ETCD), "--tls starts Duro nodes with TLS");
        serverPids = List.copyOf(serverPids);
        require(
                nodeSettings.isEmpty() || (cluster == null && system != SystemKind.ETCD),
                "--set configures Duro nodes this run starts");
        nodeSettings = Map.copyOf(nodeSettings);
        require(replicas >= 1, "--replicas must be >= 1");
        require(clients >= 1 && clients <= 10_000, "--clients must be in [1, 10000]");
        require(!duration.isNegative() && !duration.isZero(), "--duration must be positive");
        require(!warmup.isNegative(), "--warmup must be >= 0");
        require(!jitSettleMax.isNegative(), "--jit-settle must be >= 0");
        require(keysPerPartition >= 16, "--keys-per-partition must be >= 16");
        require(zipfSkew >= 0 && zipfSkew < 5, "--zipf must be in [0, 5)");
        require(!etcdThroughJetcd || system == SystemKind.ETCD, "--etcd-client chooses how --system etcd is driven");
        require(!asyncClients || system != SystemKind.ETCD, "--async-clients drives Duro's asynchronous API");
        require(
                !asyncClients || !workload.scans(),
                "--async-clients runs workloads without scans (the client's scans block); --workload " + workload
                        + " scans");
        require(
                !threadCpu || system != SystemKind.ETCD,
                "--thread-cpu accounts JVM threads; etcd's members are not JVMs");
        require(
                !threadCpu || cluster == null || !serverPids.isEmpty(),
                "--thread-cpu with --cluster needs --server-pids (the node processes to account)");
        require(!profile || system != SystemKind.ETCD, "--profile records JVMs with JFR; etcd's members are not JVMs");
        require(
                !profile || cluster == null || !serverPids.isEmpty(),
                "--profile with --cluster needs --server-pids (the node processes to record)");
        require(
                system != SystemKind.ETCD || etcdThroughJetcd || workload.runsOnGoEtcdClient(zipfSkew),
                "--etcd-client go runs the read-write workloads (A-D, pdur-1..3) with uniform keys; for --workload "
                        + workload + (zipfSkew > 0 ? " or --zipf" : "") + " use --etcd-client jetcd");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** These options with the warm-up that actually ran ({@code --warmup} and the wait for the JIT), for reports. */
    public LoadOptions withWarmup(Duration ran) {
        return new LoadOptions(
                workload,
                globalPercent,
                globalPartitions,
                partitions,
                replicas,
                clients,
                duration,
                ran,
                jitSettleMax,
                keysPerPartition,
                zipfSkew,
                cluster,
                outputDirectory,
                system,
                inProcess,
                tls,
                serverPids,
                nodeSettings,
                etcdThroughJetcd,
                asyncClients,
                threadCpu,
                profile);
    }

    /**
     * The options {@code args} give, as {@code ./duro bench} parses them ({@link LoadCommand}); for callers that
     * build a run from flags, such as {@code bench compare}.
     *
     * @throws IllegalArgumentException naming the option, when {@code args} are not valid load generator options
     */
    public static LoadOptions parse(String... args) {
        return LoadCommand.parse(args);
    }
}
