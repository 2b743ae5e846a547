package dev.duro.bench.load;

import dev.duro.client.DuroClient;
import dev.duro.client.ScanOrder;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.client.UnavailableException;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.server.tls.CertsCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.annotation.Nullable;

/**
 * Duro as a system under test: a cluster the load generator starts ({@link LocalBenchCluster}: node processes, or
 * nodes in its JVM), or an existing one reached through its seeds. One client shared by every session (it
 * multiplexes). Classical DUR is this target with one partition.
 */
public final class DuroTarget implements Target {
    private final String name;
    private final @Nullable LocalBenchCluster cluster;
    /** The node processes whose CPU is the servers': started here, or named by {@code --server-pids}. */
    private final List<Long> serverPids;

    private final DuroClient client;

    /** How long a started or named cluster has to serve. */
    private static final Duration READY_WAIT = Duration.ofSeconds(60);
    /** How often, meanwhile, the nodes started here are checked for having exited. */
    private static final Duration READY_CHECK = Duration.ofSeconds(2);

    private DuroTarget(String name, @Nullable LocalBenchCluster cluster, List<Long> serverPids, String seeds) {
        this.name = name;
        this.cluster = cluster;
        this.serverPids = List.copyOf(serverPids);
        DuroClient.Builder builder =
                DuroClient.builder().seeds(seeds).ioThreads(2).requestTimeout(Duration.ofSeconds(30));
        Path tls = cluster == null ? null : cluster.tlsDirectory();
        if (tls != null) {
            builder.tls(
                    tls.resolve(CertsCommand.CA_FILE),
                    tls.resolve(LocalBenchCluster.TLS_CLIENT + ".pem"),
                    tls.resolve(LocalBenchCluster.TLS_CLIENT + "-key.pem"));
        }
        this.client = builder.build();
        try {
            awaitReady(cluster, client);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Starts {@code partitions × replicas} (one node per replica: processes whose output goes to {@code logDirectory},
     * or in this JVM) with the given node settings, with TLS on every link if {@code tls}, and connects to it. Node
     * processes that {@code profiled} runs record keep debug information for JFR ({@link
     * LocalBenchCluster#PROFILED_NODE_JVM_OPTIONS}).
     */
    public static DuroTarget start(
            int partitions,
            int replicas,
            boolean inProcess,
            boolean tls,
            Map<String, String> settings,
            Path logDirectory,
            boolean profiled)
            throws IOException {
        LocalBenchCluster cluster =
                new LocalBenchCluster(partitions, replicas, inProcess, tls, settings, logDirectory, profiled);
        String name =
                (partitions == 1 ? "dur-1x" + replicas : "duro-" + partitions + "x" + replicas) + (tls ? "-tls" : "");
        try {
            return new DuroTarget(name, cluster, cluster.nodePids(), cluster.seeds());
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Waits up to {@link #READY_WAIT} for the cluster to serve, in short waits between which it checks that the nodes it
     * started still run: a node that exits (a setting it rejects, a port taken) fails the start at once, naming the
     * node and the last lines of its log, rather than after the whole wait.
     */
    private static void awaitReady(@Nullable LocalBenchCluster cluster, DuroClient client) {
        long deadline = System.nanoTime() + READY_WAIT.toNanos();
        while (true) {
            try {
                client.awaitReady(READY_CHECK);
                return;
            } catch (UnavailableException notYet) {
                String failure = cluster == null ? null : cluster.startFailure();
                if (failure != null) {
                    throw new IllegalStateException("the cluster did not start: " + failure, notYet);
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw notYet;
                }
            }
        }
    }

    /** Connects to a running cluster; {@code serverPids} are its node processes, if known (for their CPU). */
    public static DuroTarget connect(String seeds, List<Long> serverPids) {
        return new DuroTarget("duro", null, serverPids, seeds);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeySpace keySpace(int keysPerPartition, double zipfSkew) {
        var view = client.cluster();
        return new KeySpace(view.partitionCount(), view::partitionOf, keysPerPartition, zipfSkew);
    }

    @Override
    public Session session() {
        return new Session() {
            @Override
            public void execute(TxPlan plan) {
                DuroTarget.this.execute(plan);
            }

            @Override
            public CompletableFuture<Void> executeAsync(TxPlan plan) {
                return DuroTarget.this.executeAsync(plan);
            }
        };
    }

    /**
     * {@link #execute} through the client's asynchronous API: the reads, the commit and the answer handled where each
     * reply arrives, no thread waiting. The client's scans block, so {@code --async-clients} refuses workloads with
     * scans ({@link LoadOptions}).
     */
    private CompletableFuture<Void> executeAsync(TxPlan plan) {
        if (plan.scan() != null) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException("a scan has no asynchronous form: run it with execute"));
        }
        if (plan.kind() == TxKind.READ_ONLY) {
            return plan.reads().isEmpty()
                    ? CompletableFuture.completedFuture(null)
                    : client.readOnlyAsync(ro -> ro.getAllAsync(plan.reads())).thenApply(values -> null);
        }
        Transaction tx = client.begin();
        return tx.getAllAsync(plan.reads())
                .thenCompose(read -> {
                    write(tx, plan, read);
                    return tx.commitAsync();
                })
                .handle((committed, failure) -> {
                    tx.close();
                    if (failure == null) {
                        return null;
                    }
                    Throwable cause = Target.causeOf(failure);
                    throw cause instanceof TransactionAbortedException aborted
                            ? refused(aborted)
                            : new CompletionException(cause);
                });
    }

    private void execute(TxPlan plan) {
        try {
            // One request per partition for the plan's reads (getAll), as an application would read them.
            TxPlan.Scan scan = plan.scan();
            if (scan != null) {
                client.readOnly(ro -> ro.scan(new KeyRange(scan.from(), null), scan.limit(), ScanOrder.ASCENDING));
                return;
            }
            if (plan.kind() == TxKind.READ_ONLY) {
                if (!plan.reads().isEmpty()) {
                    client.readOnly(ro -> ro.getAll(plan.reads()));
                }
                return;
            }
            try (Transaction tx = client.begin()) {
                write(tx, plan, tx.getAll(plan.reads()));
                tx.commit();
            }
        } catch (TransactionAbortedException e) {
            throw refused(e);
        }
    }

    /** Buffers the plan's writes in {@code tx}, given the values its reads returned ({@code read}, by key). */
    private static void write(Transaction tx, TxPlan plan, Map<Bytes, Bytes> read) {
        List<Bytes> values = new ArrayList<>(plan.reads().size());
        for (Bytes key : plan.reads()) {
            values.add(read.get(key));
        }
        for (Map.Entry<Bytes, Bytes> write : plan.writes(values).entrySet()) {
            if (write.getValue() == null) {
                tx.delete(write.getKey());
            } else {
                tx.put(write.getKey(), write.getValue());
            }
        }
    }

    private static PlanAbortedException refused(TransactionAbortedException aborted) {
        return new PlanAbortedException(aborted.reason().kind().name());
    }

    @Override
    public @Nullable long[] commandsAndEntries() {
        return cluster == null ? null : cluster.commandsAndEntries();
    }

    @Override
    public List<Long> serverPids() {
        return serverPids;
    }

    @Override
    public boolean serversInThisProcess() {
        return cluster != null && serverPids.isEmpty();
    }

    @Override
    public List<String> serverFailures() {
        return cluster == null ? List.of() : cluster.exitedNodes();
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            if (cluster != null) {
                try {
                    cluster.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
