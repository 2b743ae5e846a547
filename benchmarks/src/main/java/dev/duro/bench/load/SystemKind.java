package dev.duro.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Which system {@code --system} starts: Duro partitioned as asked, classical DUR (one partition holding every
 * key, as many replicas as the partitioned layout has nodes in all), or an etcd cluster as the outside baseline.
 */
public enum SystemKind {
    /** S-DUR: {@code --partitions × --replicas}. */
    DURO,
    /** Classical DUR: 1 partition × ({@code --partitions × --replicas}) replicas. */
    DUR,
    /**
     * etcd with {@code --replicas} members, driven with the same transaction shape by the Go client
     * ({@code --etcd-client go}, {@link EtcdGoClient}) or through jetcd in the load generator.
     */
    ETCD;

    public static SystemKind parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--system must be duro, dur or etcd, not '" + text + "'", e);
        }
    }

    /** Starts this system in the layout {@code options} describes, telling the console what it starts. */
    public Target start(LoadOptions options, PrintStream console) throws IOException {
        return switch (this) {
            case DURO -> startDuro(options.partitions(), options.replicas(), options, console);
            case DUR -> startDuro(1, options.partitions() * options.replicas(), options, console);
            case ETCD -> EtcdTarget.start(options.replicas(), console);
        };
    }

    private static Target startDuro(int partitions, int replicas, LoadOptions options, PrintStream console)
            throws IOException {
        Path logs = options.outputDirectory().resolve("nodes-" + partitions + "x" + replicas);
        console.printf(
                Locale.ROOT,
                "starting Duro: %d node(s), %d partition(s) x %d replicas, %s, %s%s ...%n",
                replicas,
                partitions,
                replicas,
                options.inProcess() ? "in this process" : "one process each (output in " + logs + ")",
                leadersPlaced(options) ? "leaders on b1 while it is up" : "leaders where elections put them",
                options.tls() ? ", TLS on every link" : "");
        return DuroTarget.start(
                partitions,
                replicas,
                options.inProcess(),
                options.tls(),
                options.nodeSettings(),
                logs,
                options.profile());
    }

    /** Whether the nodes keep {@code LocalBenchCluster}'s list of preferred leaders ({@code --set} may empty it). */
    private static boolean leadersPlaced(LoadOptions options) {
        String listed = options.nodeSettings().get("cluster.preferred-leaders");
        return listed == null || !listed.isBlank();
    }
}
