package dev.duro.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Options of the load generator. Defaults reproduce the S-DUR paper's setup at a size this machine runs: two
 * partitions of three replicas, workload A, closed-loop clients.
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
        int keysPerPartition,
        double zipfSkew,
        String cluster,
        Path outputDirectory,
        SystemKind system,
        boolean inProcess,
        List<Long> serverPids,
        Map<String, String> nodeSettings,
        boolean help) {
    public static final String USAGE =
            """
            usage: ./duro bench [options]            cluster load generator (closed-loop clients)
                   ./duro bench micro [JMH options]  JMH microbenchmarks
                   ./duro bench compare [options]    Duro vs DUR vs etcd matrix, report and plots (compare --help)
              --workload NAME           which workload, listed below; --workload list lists them (A)
              --global PCT              percentage of global transactions (the workload's default, 0 for most)
              --global-partitions N     partitions per global transaction (2)
              --partitions P            partitions of the cluster it starts (2)
              --replicas R              replicas per partition = nodes it starts (3)
              --clients N               closed-loop clients (64)
              --duration S              measured seconds (20)
              --warmup S                seconds before measuring (10)
              --keys-per-partition N    distinct keys per partition (100000)
              --zipf S                  zipfian key skew, 0 for uniform (the workload's default, 0 for most)
              --system duro|dur|etcd    what it starts: duro P x R, dur 1 x (P*R) replicas (classical DUR),
                                        etcd with R members (needs /usr/bin/etcd: apt-get install etcd-server) (duro)
              --in-process              run the Duro nodes it starts inside the load generator's JVM (by default
                                        each node is a process of its own, as ./duro local runs them)
              --set KEY=VALUE           a setting of the Duro nodes it starts (README's configuration table);
                                        repeatable
              --cluster host:port,...   drive an existing Duro cluster instead of starting one
              --server-pids PID,...     with --cluster: the node processes whose CPU to report (./duro local
                                        writes them to data/n*.pid)
              --out DIR                 where result.json and result.csv go (benchmarks/results/<timestamp>)
            workloads (name, source paper, shape; no load phase: a missing balance or list reads as 0 or empty):
            """
                    + Workload.list();

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
        serverPids = List.copyOf(serverPids);
        require(
                nodeSettings.isEmpty() || (cluster == null && system != SystemKind.ETCD),
                "--set configures Duro nodes this run starts");
        nodeSettings = Map.copyOf(nodeSettings);
        require(replicas >= 1, "--replicas must be >= 1");
        require(clients >= 1 && clients <= 10_000, "--clients must be in [1, 10000]");
        require(!duration.isNegative() && !duration.isZero(), "--duration must be positive");
        require(!warmup.isNegative(), "--warmup must be >= 0");
        require(keysPerPartition >= 16, "--keys-per-partition must be >= 16");
        require(zipfSkew >= 0 && zipfSkew < 5, "--zipf must be in [0, 5)");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private static List<Long> parsePids(String text) {
        List<Long> pids = new ArrayList<>();
        for (String pid : text.split(",")) {
            try {
                pids.add(Long.parseLong(pid.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "--server-pids takes process ids separated by commas, not '" + text + "'", e);
            }
        }
        return pids;
    }

    public static LoadOptions parse(String[] args) {
        Workload workload = Workload.A;
        Integer global = null;
        int globalPartitions = 2;
        int partitions = 2;
        int replicas = 3;
        int clients = 64;
        int duration = 20;
        int warmup = 10;
        int keys = 100_000;
        Double zipf = null;
        String cluster = null;
        Path out = null;
        SystemKind system = SystemKind.DURO;
        boolean help = false;
        boolean inProcess = false;
        List<Long> serverPids = List.of();
        Map<String, String> nodeSettings = new TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                help = true;
                continue;
            }
            if (flag.equals("--in-process")) {
                inProcess = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--workload" -> workload = Workload.named(value);
                case "--global" -> global = Integer.parseInt(value);
                case "--global-partitions" -> globalPartitions = Integer.parseInt(value);
                case "--partitions" -> partitions = Integer.parseInt(value);
                case "--replicas" -> replicas = Integer.parseInt(value);
                case "--clients" -> clients = Integer.parseInt(value);
                case "--duration" -> duration = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--keys-per-partition" -> keys = Integer.parseInt(value);
                case "--zipf" -> zipf = Double.parseDouble(value);
                case "--cluster" -> cluster = value;
                case "--out" -> out = Path.of(value);
                case "--system" -> system = SystemKind.parse(value);
                case "--server-pids" -> serverPids = parsePids(value);
                case "--set" -> {
                    int equals = value.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--set takes KEY=VALUE, not '" + value + "'");
                    }
                    nodeSettings.put(
                            value.substring(0, equals).trim(),
                            value.substring(equals + 1).trim());
                }
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if (global == null) {
            // A workload's paper share of global transactions, where the cluster has the partitions for it.
            global = partitions >= globalPartitions ? workload.defaultGlobalPercent() : 0;
        }
        if (zipf == null) {
            zipf = workload.defaultZipfSkew();
        }
        if (out == null) {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
            out = Path.of("benchmarks", "results", stamp);
        }
        return new LoadOptions(
                workload,
                global,
                globalPartitions,
                partitions,
                replicas,
                clients,
                Duration.ofSeconds(duration),
                Duration.ofSeconds(warmup),
                keys,
                zipf,
                cluster,
                out,
                system,
                inProcess,
                serverPids,
                nodeSettings,
                help);
    }
}
