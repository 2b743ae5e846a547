package dev.duro.cli;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.duro.client.DuroClient;
import dev.duro.client.TransactionAbortedException;
import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo of {@code ./duro local}: money moves between accounts spread over every partition (so most
 * transfers are global), while an auditor sums all balances in read-only transactions, which must always see
 * the exact total. A progress line shows local, global and read-only rates, aborts and latency.
 */
final class Demo {
    private static final int ACCOUNTS = 64;
    private static final long OPENING_BALANCE = 1_000;
    private static final int WORKERS = 8;

    private final DuroClient client;
    private final Duration duration;
    private final PrintStream out;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong localCommits = new AtomicLong();
    private final AtomicLong globalCommits = new AtomicLong();
    private final AtomicLong aborts = new AtomicLong();
    private final AtomicLong audits = new AtomicLong();
    private final AtomicLong auditFailures = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final LatencySample latencies = new LatencySample();

    Demo(DuroClient client, Duration duration, PrintStream out) {
        this.client = client;
        this.duration = duration;
        this.out = out;
    }

    private static String account(int index) {
        return String.format(Locale.ROOT, "demo:account:%03d", index);
    }

    /** Runs the demo; returns whether every audit saw the exact total. */
    boolean run() {
        openAccounts();
        long total = ACCOUNTS * OPENING_BALANCE;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            threads.add(start("demo-transfer-" + w, this::transferLoop));
        }
        threads.add(start("demo-audit", () -> auditLoop(total)));
        long started = System.nanoTime();
        long lastLocal = 0;
        long lastGlobal = 0;
        long lastAudits = 0;
        for (int second = 1; second <= duration.toSeconds(); second++) {
            sleep(Math.max(0, started + second * 1_000_000_000L - System.nanoTime()) / 1_000_000);
            long local = localCommits.get();
            long global = globalCommits.get();
            long audited = audits.get();
            long[] window = latencies.drain();
            out.printf(
                    Locale.ROOT,
                    "\r[%3ds] committed/s: %5d local %5d global | read-only audits/s %4d | aborts %d | p50 %s p99 %s"
                            + " | audit %s   ",
                    second,
                    local - lastLocal,
                    global - lastGlobal,
                    audited - lastAudits,
                    aborts.get(),
                    percentile(window, 0.50),
                    percentile(window, 0.99),
                    auditFailures.get() == 0 ? "ok" : "FAILED x" + auditFailures.get());
            out.flush();
            lastLocal = local;
            lastGlobal = global;
            lastAudits = audited;
        }
        running.set(false);
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long finalTotal = sumAll();
        out.printf(
                Locale.ROOT,
                "%ndemo: %d transfers committed (%d local, %d global), %d aborted and retried, %d audits,"
                        + " %d audit failures, %d errors; final total %d (expected %d)%n",
                localCommits.get() + globalCommits.get(),
                localCommits.get(),
                globalCommits.get(),
                aborts.get(),
                audits.get(),
                auditFailures.get(),
                errors.get(),
                finalTotal,
                total);
        return auditFailures.get() == 0 && finalTotal == total;
    }

    private void openAccounts() {
        client.transact(tx -> {
            for (int i = 0; i < ACCOUNTS; i++) {
                if (tx.get(account(i)) == null) {
                    tx.putLong(account(i), OPENING_BALANCE);
                }
            }
            return null;
        });
    }

    private void transferLoop() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (running.get()) {
            int from = random.nextInt(ACCOUNTS);
            int to = random.nextInt(ACCOUNTS - 1);
            if (to >= from) {
                to++;
            }
            String source = account(from);
            String target = account(to);
            long amount = 1 + random.nextInt(20);
            boolean global = client.cluster().partitionOf(Bytes.utf8(source))
                    != client.cluster().partitionOf(Bytes.utf8(target));
            long begun = System.nanoTime();
            try (var tx = client.begin()) {
                long balance = tx.getLong(source);
                if (balance >= amount) {
                    tx.putLong(source, balance - amount);
                    tx.putLong(target, tx.getLong(target) + amount);
                }
                tx.commit();
                latencies.record(System.nanoTime() - begun);
                (global ? globalCommits : localCommits).incrementAndGet();
            } catch (TransactionAbortedException e) {
                aborts.incrementAndGet();
            } catch (DuroException e) {
                errors.incrementAndGet();
                sleep(50);
            }
        }
    }

    private void auditLoop(long expected) {
        while (running.get()) {
            try {
                long sum = sumAll();
                audits.incrementAndGet();
                if (sum != expected) {
                    auditFailures.incrementAndGet();
                    out.printf(Locale.ROOT, "%naudit saw total %d, expected %d%n", sum, expected);
                }
            } catch (DuroException | CompletionException e) {
                errors.incrementAndGet();
                sleep(50);
            }
        }
    }

    /** Sums every balance in one read-only transaction: one multi-key read per partition (per 32 accounts). */
    private long sumAll() {
        List<Bytes> accounts = new ArrayList<>(ACCOUNTS);
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts.add(Bytes.utf8(account(i)));
        }
        return client.readOnly(ro -> {
            long sum = 0;
            for (Bytes value : ro.getAll(accounts).values()) {
                sum += value == null ? 0 : Long.parseLong(value.toUtf8());
            }
            return sum;
        });
    }

    /** Sleeps; an interrupt ends the sleep early and stays set, so that the loops see it. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static String percentile(long[] sortedNanos, double quantile) {
        if (sortedNanos.length == 0) {
            return "   - ";
        }
        long nanos = sortedNanos[Math.min(sortedNanos.length - 1, (int) (quantile * sortedNanos.length))];
        return String.format(Locale.ROOT, "%5.1f ms", nanos / 1e6);
    }

    /** Latencies of the current second; bounded so a fast cluster cannot grow it without limit. */
    private static final class LatencySample {
        private static final int CAPACITY = 100_000;

        @GuardedBy("this")
        private final long[] values = new long[CAPACITY];

        @GuardedBy("this")
        private int size;

        synchronized void record(long nanos) {
            if (size < CAPACITY) {
                values[size++] = nanos;
            }
        }

        synchronized long[] drain() {
            long[] window = Arrays.copyOf(values, size);
            size = 0;
            Arrays.sort(window);
            return window;
        }
    }
}
