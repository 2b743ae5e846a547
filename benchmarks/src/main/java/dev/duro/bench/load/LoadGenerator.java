package dev.duro.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.Nullable;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Closed-loop clients running one workload against a cluster: each client runs one transaction at a time, for
 * a warm-up and then a measured period. Latency per class of transaction (local, global, read-only) goes into
 * HdrHistograms; aborts are counted by reason and not retried, so the abort rate is the protocol's.
 */
public final class LoadGenerator {
    /** Latencies are recorded up to a minute; a longer one counts as a minute. */
    static final long LATENCY_MAX_MICROS = 60_000_000L;

    private final LoadOptions options;
    private final PrintStream out;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean measuring = new AtomicBoolean(false);
    private final Map<TxKind, Recorder> latencies = new EnumMap<>(TxKind.class);
    private final Map<TxKind, LongAdder> commits = new EnumMap<>(TxKind.class);
    private final Map<String, LongAdder> aborts = new ConcurrentHashMap<>();
    private final LongAdder errors = new LongAdder();
    private volatile String lastErrorText = "";

    public LoadGenerator(LoadOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        for (TxKind kind : TxKind.values()) {
            latencies.put(kind, new Recorder(3));
            commits.put(kind, new LongAdder());
        }
    }

    /** Runs the benchmark against the cluster it starts or the one given; returns false when nothing committed. */
    public boolean run() throws IOException, InterruptedException {
        Target target;
        if (options.cluster() == null) {
            target = options.system().start(options, out);
        } else {
            target = DuroTarget.connect(options.cluster(), options.serverPids());
        }
        try (target) {
            Report report = run(target);
            report.print(out);
            for (String failure : target.serverFailures()) {
                out.println("warning: node " + failure + " exited during the run; its output is beside the results");
            }
            report.write(options.outputDirectory());
            out.println("results: " + options.outputDirectory().resolve("result.json") + " and result.csv");
            return report.committed() > 0;
        }
    }

    /**
     * Runs the workload against {@code target}: warm-up, then the measured period. An etcd target is driven by the Go
     * client process unless the options ask for jetcd ({@link EtcdGoClient}).
     */
    public Report run(Target target) throws IOException, InterruptedException {
        if (target instanceof EtcdTarget etcd && !options.etcdThroughJetcd()) {
            return EtcdGoClient.run(etcd, options, out);
        }
        KeySpace keys = target.keySpace(options.keysPerPartition(), options.zipfSkew());
        return measure(target, keys);
    }

    private Report measure(Target target, KeySpace keys) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        CountDownLatch asyncClientsDone = new CountDownLatch(options.asyncClients() ? options.clients() : 0);
        List<Target.Session> asyncSessions = new ArrayList<>();
        for (int c = 0; c < options.clients(); c++) {
            TxSource source = options.workload().source(keys, options, new SplittableRandom(0x5eed + c));
            if (options.asyncClients()) {
                Target.Session session = target.session();
                asyncSessions.add(session);
                asyncLoop(session, source, asyncClientsDone);
                continue;
            }
            Thread thread = new Thread(() -> clientLoop(target, source), "bench-client-" + c);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        List<Long> watched = new ArrayList<>(target.serverPids());
        watched.add(ProcessHandle.current().pid());
        // A recording starts with the warm-up: JFR's start makes a warm JVM compile again, for longer than a window.
        ThreadProfile profile = options.profile() ? startProfile(target) : null;
        JitSettle jit = JitSettle.watch(watched);
        progress("warm-up", options.warmup());
        Duration jitWait = jit.await(options.jitSettleMax(), out);
        for (Recorder recorder : latencies.values()) {
            recorder.reset();
        }
        commits.values().forEach(LongAdder::reset);
        aborts.values().forEach(LongAdder::reset);
        errors.reset();
        long[] batchingBefore = target.commandsAndEntries();
        ThreadCpu.Window threadWindow = options.threadCpu() ? openThreadWindow(target) : null;
        long clientCpuBefore = ProcessCpu.thisProcessNanos();
        long serverCpuBefore = target.serverCpuNanos();
        long started = System.nanoTime();
        Instant windowOpened = Instant.now();
        measuring.set(true);
        progress("measure", options.duration());
        measuring.set(false);
        Instant windowClosed = Instant.now();
        double seconds = (System.nanoTime() - started) / 1e9;
        long clientCpu = ProcessCpu.thisProcessNanos() - clientCpuBefore;
        long serverCpuAfter = target.serverCpuNanos();
        // Negative when the servers cannot be measured apart (in this JVM): then this process's CPU is all of it.
        double serverCpuSeconds =
                serverCpuBefore < 0 || serverCpuAfter < 0 ? Double.NaN : (serverCpuAfter - serverCpuBefore) / 1e9;
        long[] batchingAfter = target.commandsAndEntries();
        ThreadCpu.Account threadAccount = threadWindow == null ? null : closeThreadWindow(threadWindow);
        running.set(false);
        Map<TxKind, Histogram> histograms = new EnumMap<>(TxKind.class);
        latencies.forEach((kind, recorder) -> histograms.put(kind, recorder.getIntervalHistogram()));
        for (Thread thread : threads) {
            thread.join(5_000);
        }
        asyncClientsDone.await(5, TimeUnit.SECONDS);
        asyncSessions.forEach(Target.Session::close);
        if (profile != null) {
            stopProfile(profile, windowOpened, windowClosed);
        }
        Map<TxKind, Long> committed = new EnumMap<>(TxKind.class);
        commits.forEach((kind, adder) -> committed.put(kind, adder.sum()));
        Map<String, Long> aborted = new TreeMap<>();
        aborts.forEach((kind, adder) -> aborted.put(kind, adder.sum()));
        double commandsPerEntry = Double.NaN;
        double entriesPerSecond = Double.NaN;
        if (batchingBefore != null && batchingAfter != null) {
            long entries = batchingAfter[1] - batchingBefore[1];
            commandsPerEntry = entries == 0 ? Double.NaN : (double) (batchingAfter[0] - batchingBefore[0]) / entries;
            entriesPerSecond = entries / seconds;
        }
        return new Report(
                target.name(),
                options.withWarmup(options.warmup().plus(jitWait)),
                seconds,
                committed,
                aborted,
                errors.sum(),
                histograms,
                new Report.Cpu(clientCpu / 1e9, serverCpuSeconds, target.serversInThisProcess()),
                commandsPerEntry,
                entriesPerSecond,
                threadAccount);
    }

    /** The JVMs {@code --thread-cpu} and {@code --profile} look into: the nodes', or this one when they run here. */
    private static List<Long> serverJvms(Target target) {
        return target.serversInThisProcess() ? List.of(ProcessHandle.current().pid()) : target.serverPids();
    }

    /**
     * The first thread dumps of {@code --thread-cpu}; null, with a warning, when they cannot be taken (the run goes on
     * without the account).
     */
    private @Nullable ThreadCpu.Window openThreadWindow(Target target) throws InterruptedException {
        try {
            return ThreadCpu.open(serverJvms(target));
        } catch (IOException e) {
            out.println("warning: no CPU by thread (--thread-cpu): " + e.getMessage());
            return null;
        }
    }

    /** {@code --profile}'s recordings, started; null, with a warning, when they cannot be (the run goes on). */
    private @Nullable ThreadProfile startProfile(Target target) throws InterruptedException {
        try {
            return ThreadProfile.start(options.outputDirectory().resolve("profiles"), serverJvms(target));
        } catch (IOException e) {
            out.println("warning: no profile (--profile): " + e.getMessage());
            return null;
        }
    }

    private void stopProfile(ThreadProfile profile, Instant from, Instant to) throws InterruptedException {
        try {
            for (ThreadProfile.Written written : profile.stop(from, to)) {
                out.println("profile: " + written.flameGraph() + " (flame graph), "
                        + written.folded().getFileName() + " and "
                        + written.recording().getFileName() + " beside it");
            }
        } catch (IOException e) {
            out.println("warning: no profile (--profile): " + e.getMessage());
        }
    }

    private @Nullable ThreadCpu.Account closeThreadWindow(ThreadCpu.Window window) throws InterruptedException {
        try {
            return window.close();
        } catch (IOException e) {
            out.println("warning: no CPU by thread (--thread-cpu): " + e.getMessage());
            return null;
        }
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

    private void clientLoop(Target target, TxSource source) {
        try (Target.Session session = target.session()) {
            while (running.get()) {
                TxPlan plan = source.next();
                long begun = System.nanoTime();
                try {
                    session.execute(plan);
                    recordOutcome(plan, begun, null);
                } catch (RuntimeException e) {
                    recordOutcome(plan, begun, e);
                }
            }
        }
    }

    /**
     * One asynchronous client ({@code --async-clients}): runs its next plan when the last one ends, on the thread
     * that ended it, until the run stops; then counts {@code done} down. A plan that ends before its future is
     * returned is followed in this loop, so the stack does not grow with such plans.
     */
    private void asyncLoop(Target.Session session, TxSource source, CountDownLatch done) {
        while (running.get()) {
            TxPlan plan = source.next();
            long begun = System.nanoTime();
            CompletableFuture<Void> ended;
            try {
                ended = session.executeAsync(plan);
            } catch (RuntimeException e) {
                ended = CompletableFuture.failedFuture(e);
            }
            if (!ended.isDone()) {
                ended.whenComplete((ignored, failure) -> {
                    recordOutcome(plan, begun, failure);
                    asyncLoop(session, source, done);
                });
                return;
            }
            recordOutcome(
                    plan, begun, ended.handle((ignored, failure) -> failure).join());
        }
        done.countDown();
    }

    /** Counts one plan's end: committed ({@code failure} null), refused by the system, or an error. */
    private void recordOutcome(TxPlan plan, long begun, @Nullable Throwable failure) {
        Throwable cause = failure == null ? null : Target.causeOf(failure);
        if (cause == null) {
            long micros = Math.min((System.nanoTime() - begun) / 1_000, LATENCY_MAX_MICROS);
            Objects.requireNonNull(latencies.get(plan.kind()), "a histogram per class")
                    .recordValue(micros);
            Objects.requireNonNull(commits.get(plan.kind()), "a counter per class")
                    .increment();
        } else if (cause instanceof PlanAbortedException aborted) {
            aborts.computeIfAbsent(aborted.reason(), reason -> new LongAdder()).increment();
        } else {
            errors.increment();
            lastErrorText = "(" + cause.getClass().getSimpleName() + ")";
        }
    }
}
