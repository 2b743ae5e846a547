package dev.duro.bench.load;

import dev.duro.client.DuroClient;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Closed-loop clients running one workload against a cluster: each client runs one transaction at a time, for
 * a warm-up and then a measured period. Latency per class of transaction (local, global, read-only) goes into
 * HdrHistograms; aborts are counted by reason and not retried, so the abort rate is the protocol's.
 */
public final class LoadGenerator {
    /** The three classes of transaction reported separately. */
    enum Kind {
        LOCAL,
        GLOBAL,
        READ_ONLY
    }

    private final LoadOptions options;
    private final PrintStream out;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean measuring = new AtomicBoolean(false);
    private final Map<Kind, Recorder> latencies = new EnumMap<>(Kind.class);
    private final Map<Kind, LongAdder> commits = new EnumMap<>(Kind.class);
    private final Map<AbortReason.Kind, LongAdder> aborts = new EnumMap<>(AbortReason.Kind.class);
    private final LongAdder errors = new LongAdder();
    private volatile String lastErrorText = "";

    public LoadGenerator(LoadOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        for (Kind kind : Kind.values()) {
            latencies.put(kind, new Recorder(3));
            commits.put(kind, new LongAdder());
        }
        for (AbortReason.Kind kind : AbortReason.Kind.values()) {
            aborts.put(kind, new LongAdder());
        }
    }

    /** Runs the benchmark; returns false when nothing committed. */
    public boolean run() throws IOException, InterruptedException {
        LocalBenchCluster cluster = null;
        String seeds = options.cluster();
        if (seeds == null) {
            out.printf(
                    Locale.ROOT,
                    "starting %d node(s), %d partition(s) x %d replicas, in this process ...%n",
                    options.replicas(),
                    options.partitions(),
                    options.replicas());
            cluster = new LocalBenchCluster(options.partitions(), options.replicas());
            seeds = cluster.seeds();
        }
        try (DuroClient client = DuroClient.builder()
                .seeds(seeds)
                .ioThreads(2)
                .requestTimeout(Duration.ofSeconds(30))
                .build()) {
            client.awaitReady(Duration.ofSeconds(60));
            KeySpace keys = new KeySpace(client.cluster(), options.keysPerPartition(), options.zipfSkew());
            Report report = measure(client, keys, cluster);
            report.print(out);
            report.write(options.outputDirectory());
            out.println("results: " + options.outputDirectory().resolve("result.json") + " and result.csv");
            return report.committed() > 0;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private Report measure(DuroClient client, KeySpace keys, LocalBenchCluster cluster) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < options.clients(); c++) {
            SplittableRandom random = new SplittableRandom(0x5eed + c);
            Thread thread = new Thread(() -> clientLoop(client, keys, random), "bench-client-" + c);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        progress("warm-up", options.warmup());
        for (Recorder recorder : latencies.values()) {
            recorder.reset();
        }
        commits.values().forEach(LongAdder::reset);
        aborts.values().forEach(LongAdder::reset);
        errors.reset();
        long[] batchingBefore = cluster == null ? null : cluster.commandsAndEntries();
        long cpuBefore = processCpuNanos();
        long started = System.nanoTime();
        measuring.set(true);
        progress("measure", options.duration());
        measuring.set(false);
        double seconds = (System.nanoTime() - started) / 1e9;
        long cpu = processCpuNanos() - cpuBefore;
        long[] batchingAfter = cluster == null ? null : cluster.commandsAndEntries();
        running.set(false);
        Map<Kind, Histogram> histograms = new EnumMap<>(Kind.class);
        latencies.forEach((kind, recorder) -> histograms.put(kind, recorder.getIntervalHistogram()));
        for (Thread thread : threads) {
            thread.join(5_000);
        }
        Map<Kind, Long> committed = new EnumMap<>(Kind.class);
        commits.forEach((kind, adder) -> committed.put(kind, adder.sum()));
        Map<AbortReason.Kind, Long> aborted = new EnumMap<>(AbortReason.Kind.class);
        aborts.forEach((kind, adder) -> aborted.put(kind, adder.sum()));
        double commandsPerEntry = batchingBefore == null || batchingAfter[1] == batchingBefore[1]
                ? Double.NaN
                : (double) (batchingAfter[0] - batchingBefore[0]) / (batchingAfter[1] - batchingBefore[1]);
        double entriesPerSecond =
                batchingBefore == null ? Double.NaN : (batchingAfter[1] - batchingBefore[1]) / seconds;
        return new Report(
                options,
                seconds,
                committed,
                aborted,
                errors.sum(),
                histograms,
                cpu / 1e9,
                commandsPerEntry,
                entriesPerSecond);
    }

    private void progress(String phase, Duration length) throws InterruptedException {
        long end = System.nanoTime() + length.toNanos();
        long lastTotal = total();
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(1_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            long now = total();
            long abortCount = aborts.values().stream().mapToLong(LongAdder::sum).sum();
            out.printf(
                    Locale.ROOT,
                    "\r%-8s %4.0fs left | %7d tx/s | aborts %d | errors %d %s   ",
                    phase,
                    Math.max(0, (end - System.nanoTime()) / 1e9),
                    now - lastTotal,
                    abortCount,
                    errors.sum(),
                    lastErrorText);
            out.flush();
            lastTotal = now;
        }
        out.println();
    }

    private long total() {
        return commits.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private void clientLoop(DuroClient client, KeySpace keys, SplittableRandom random) {
        Workload workload = options.workload();
        byte[] value = new byte[workload.valueBytes()];
        while (running.get()) {
            boolean global = random.nextInt(100) < options.globalPercent();
            List<Bytes> chosen = chooseKeys(keys, random, global, workload.reads());
            Kind kind = workload.readOnly() ? Kind.READ_ONLY : global ? Kind.GLOBAL : Kind.LOCAL;
            long begun = System.nanoTime();
            try {
                if (workload.readOnly()) {
                    client.readOnly(ro -> {
                        for (Bytes key : chosen) {
                            ro.get(key);
                        }
                        return null;
                    });
                } else {
                    runUpdate(client, chosen, workload.writes(), value, random);
                }
                latencies.get(kind).recordValue(Math.min((System.nanoTime() - begun) / 1_000, 60_000_000L));
                commits.get(kind).increment();
            } catch (TransactionAbortedException e) {
                aborts.get(e.reason().kind()).increment();
            } catch (DuroException e) {
                errors.increment();
                lastErrorText = "(" + e.getClass().getSimpleName() + ")";
            }
        }
    }

    private static void runUpdate(
            DuroClient client, List<Bytes> keys, int writes, byte[] value, SplittableRandom random) {
        try (Transaction tx = client.begin()) {
            for (Bytes key : keys) {
                tx.get(key);
            }
            for (int i = 0; i < writes && i < keys.size(); i++) {
                random.nextBytes(value);
                tx.put(keys.get(i), Bytes.copyOf(value));
            }
            tx.commit();
        }
    }

    /** Distinct keys, spread round robin over one partition (local) or several (global). */
    private List<Bytes> chooseKeys(KeySpace keys, SplittableRandom random, boolean global, int count) {
        int[] partitions = global
                ? distinctPartitions(keys.partitions(), options.globalPartitions(), random)
                : new int[] {random.nextInt(keys.partitions())};
        Set<Bytes> chosen = new LinkedHashSet<>();
        for (int i = 0; chosen.size() < count && i < count * 20; i++) {
            chosen.add(keys.pick(partitions[chosen.size() % partitions.length], random));
        }
        return new ArrayList<>(chosen);
    }

    private static int[] distinctPartitions(int partitions, int count, SplittableRandom random) {
        int[] all = new int[partitions];
        for (int i = 0; i < partitions; i++) {
            all[i] = i;
        }
        for (int i = 0; i < count; i++) {
            int j = i + random.nextInt(partitions - i);
            int swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        return java.util.Arrays.copyOf(all, count);
    }

    private static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return 0;
    }
}
