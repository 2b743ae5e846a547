package dev.duro.bench.load;

import dev.duro.client.DuroClient;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.core.Bytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Duro as a system under test: a cluster started in this process ({@link LocalBenchCluster}), or an existing one
 * reached through its seeds. One client shared by every session (it multiplexes). Classical DUR is this target
 * with one partition.
 */
public final class DuroTarget implements Target {
    private final String name;
    private final LocalBenchCluster cluster;
    private final DuroClient client;

    private DuroTarget(String name, LocalBenchCluster cluster, String seeds) {
        this.name = name;
        this.cluster = cluster;
        this.client = DuroClient.builder()
                .seeds(seeds)
                .ioThreads(2)
                .requestTimeout(Duration.ofSeconds(30))
                .build();
        try {
            client.awaitReady(Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Starts {@code partitions × replicas} in this process (one node per replica) and connects to it. */
    public static DuroTarget start(int partitions, int replicas) throws IOException {
        LocalBenchCluster cluster = new LocalBenchCluster(partitions, replicas);
        String name = partitions == 1 ? "dur-1x" + replicas : "duro-" + partitions + "x" + replicas;
        try {
            return new DuroTarget(name, cluster, cluster.seeds());
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Connects to a running cluster. */
    public static DuroTarget connect(String seeds) {
        return new DuroTarget("duro", null, seeds);
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
        return this::execute;
    }

    private void execute(TxPlan plan) {
        try {
            if (plan.kind() == TxKind.READ_ONLY) {
                client.readOnly(ro -> {
                    for (Bytes key : plan.reads()) {
                        ro.get(key);
                    }
                    return null;
                });
                return;
            }
            try (Transaction tx = client.begin()) {
                List<Bytes> values = new ArrayList<>(plan.reads().size());
                for (Bytes key : plan.reads()) {
                    values.add(tx.get(key));
                }
                for (Map.Entry<Bytes, Bytes> write : plan.writes(values).entrySet()) {
                    if (write.getValue() == null) {
                        tx.delete(write.getKey());
                    } else {
                        tx.put(write.getKey(), write.getValue());
                    }
                }
                tx.commit();
            }
        } catch (TransactionAbortedException e) {
            throw new PlanAbortedException(e.reason().kind().name());
        }
    }

    @Override
    public long[] commandsAndEntries() {
        return cluster == null ? null : cluster.commandsAndEntries();
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
