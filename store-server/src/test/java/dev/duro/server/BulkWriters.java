package dev.duro.server;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.ServerErrorException;
import dev.duro.client.Transaction;
import dev.duro.client.UnavailableException;
import dev.duro.core.Bytes;
import dev.duro.core.wire.ErrorCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Load that fills partitions: writer threads per partition (one by default) commit new keys of that partition, many
 * to a transaction, through the real client, each one transaction at a time (so with one writer each is its own log
 * entry: group commit has nothing to join it with). Every value is derived from its key ({@link #valueOf}), so any key read back can be checked.
 *
 * <p>It remembers counts, the time of every acknowledgement (to find stalls), the last key acknowledged in each
 * partition and a sample of one acknowledged key in {@link #SAMPLE_EVERY} transactions, not every key: at a
 * million keys per partition the check is that replicas converge, plus the sample read back.
 */
final class BulkWriters implements AutoCloseable {
    static final int SAMPLE_EVERY = 50;
    private static final int TRANSACTIONS_PER_THREAD_MAX = 2_000_000;

    private final DuroClient client;
    private final ClusterView view;
    private final String prefix;
    private final int keysPerTransaction;
    private final int valueBytes;
    private final int writersPerPartition;
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Transactions per second each partition's writers start at most; 0 for as many as the cluster takes. */
    private volatile int transactionsPerSecondMax;

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLongArray acknowledgedKeys;
    private final AtomicReferenceArray<String> lastAcknowledged;
    private final List<AcknowledgementTimes> acknowledgementTimes = new ArrayList<>();
    private final Map<String, Integer> sample = new ConcurrentHashMap<>();
    private final AtomicLongArray uncertainTransactions;
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    BulkWriters(DuroClient client, String prefix, int keysPerTransaction, int valueBytes) {
        this(client, prefix, keysPerTransaction, valueBytes, 1);
    }

    BulkWriters(DuroClient client, String prefix, int keysPerTransaction, int valueBytes, int writersPerPartition) {
        this.client = client;
        this.view = client.cluster();
        this.prefix = prefix;
        this.keysPerTransaction = keysPerTransaction;
        this.valueBytes = valueBytes;
        this.writersPerPartition = writersPerPartition;
        int partitions = view.partitionCount();
        this.acknowledgedKeys = new AtomicLongArray(partitions);
        this.lastAcknowledged = new AtomicReferenceArray<>(partitions);
        this.uncertainTransactions = new AtomicLongArray(partitions);
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            acknowledgementTimes.add(new AcknowledgementTimes());
            for (int w = 0; w < writersPerPartition; w++) {
                int writer = w;
                threads.add(new Thread(() -> write(partition, writer), "bulk-writer-" + p + "-" + w));
            }
        }
        threads.forEach(Thread::start);
    }

    /** The value written under {@code key}: the key, padded. */
    String valueOf(String key) {
        return key.length() >= valueBytes ? key : key + "-".repeat(valueBytes - key.length());
    }

    /** From now on each partition's writers start at most this many transactions per second (0: no limit). */
    void throttle(int transactionsPerSecond) {
        transactionsPerSecondMax = transactionsPerSecond;
    }

    private void write(int partition, int writer) {
        String keyPrefix = prefix + partition + "-" + (writer == 0 ? "" : writer + "-");
        long candidate = 0;
        long nextStartNanos = System.nanoTime();
        for (int t = 0; t < TRANSACTIONS_PER_THREAD_MAX && !stopping.get(); t++) {
            nextStartNanos = pace(nextStartNanos);
            List<String> keys = new ArrayList<>(keysPerTransaction);
            while (keys.size() < keysPerTransaction) {
                String key = keyPrefix + candidate++;
                if (view.partitionOf(Bytes.utf8(key)) == partition) {
                    keys.add(key);
                }
            }
            try (Transaction tx = client.begin()) {
                for (String key : keys) {
                    tx.put(key, valueOf(key));
                }
                tx.commit();
                acknowledge(partition, keys, t);
            } catch (UnavailableException e) {
                uncertainTransactions.incrementAndGet(partition);
                Await.pause(20); // the cluster is changing: do not spin
            } catch (ServerErrorException e) {
                if (e.code() == ErrorCode.NOT_READY || e.code() == ErrorCode.OVERLOADED) {
                    uncertainTransactions.incrementAndGet(partition);
                    Await.pause(20);
                } else {
                    failures.add(keys.get(0) + ": " + e);
                }
            } catch (RuntimeException e) {
                failures.add(keys.get(0) + ": " + e);
            }
        }
    }

    /** Waits until {@code startNanos} if the writers are throttled; returns when the next transaction may start. */
    private long pace(long startNanos) {
        int rate = transactionsPerSecondMax <= 0 ? 0 : Math.max(1, transactionsPerSecondMax / writersPerPartition);
        long now = System.nanoTime();
        if (rate <= 0) {
            return now;
        }
        if (startNanos > now) {
            Await.pause((startNanos - now) / 1_000_000); // pacing the load is the point of this wait
        }
        // A writer that fell behind (a slow commit) starts the next one at once but does not burst to catch up.
        return Math.max(startNanos, now) + 1_000_000_000L / rate;
    }

    private void acknowledge(int partition, List<String> keys, int transaction) {
        acknowledgementTimes.get(partition).add();
        acknowledgedKeys.addAndGet(partition, keys.size());
        lastAcknowledged.set(partition, keys.get(keys.size() - 1));
        if (transaction % SAMPLE_EVERY == 0) {
            sample.put(keys.get(0), partition);
        }
    }

    long acknowledgedKeys(int partition) {
        return acknowledgedKeys.get(partition);
    }

    /** The key of {@code partition} acknowledged last, or null. */
    String lastAcknowledged(int partition) {
        return lastAcknowledged.get(partition);
    }

    long uncertainTransactions(int partition) {
        return uncertainTransactions.get(partition);
    }

    /** Acknowledged keys, about one in {@link #SAMPLE_EVERY} transactions, with their partitions. */
    Map<String, Integer> sample() {
        return Map.copyOf(sample);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** Transactions of {@code partition} acknowledged between two instants of {@link System#nanoTime}. */
    int acknowledgedBetween(int partition, long fromNanos, long toNanos) {
        return acknowledgementTimes.get(partition).countBetween(fromNanos, toNanos);
    }

    /** The longest time {@code partition} went without an acknowledgement between two instants, in ms. */
    long longestGapMillis(int partition, long fromNanos, long toNanos) {
        return acknowledgementTimes.get(partition).longestGapNanos(fromNanos, toNanos) / 1_000_000;
    }

    /** Waits until every partition has {@code keys} acknowledged keys, failing fast if a writer failed. */
    void awaitKeysInEveryPartition(long keys, Duration deadline) {
        Await.until("every partition holds " + keys + " acknowledged keys", deadline, () -> {
            if (!failures.isEmpty()) {
                throw new AssertionError("writers failed: " + failures);
            }
            for (int p = 0; p < view.partitionCount(); p++) {
                if (acknowledgedKeys(p) < keys) {
                    return Await.Poll.notYet("partition " + p + " has " + acknowledgedKeys(p));
                }
            }
            return Await.Poll.done(true);
        });
    }

    void stop() {
        stopping.set(true);
        Await.joinAll(threads);
    }

    @Override
    public void close() {
        stop();
    }

    /** The instants of one partition's acknowledgements, in order (taken as they are added). */
    private static final class AcknowledgementTimes {
        private long[] nanos = new long[1024];
        private int size;

        synchronized void add() {
            if (size == nanos.length) {
                nanos = Arrays.copyOf(nanos, size * 2);
            }
            nanos[size++] = System.nanoTime();
        }

        synchronized int countBetween(long from, long to) {
            int count = 0;
            for (int i = 0; i < size; i++) {
                if (nanos[i] >= from && nanos[i] <= to) {
                    count++;
                }
            }
            return count;
        }

        /** The longest stretch of [from, to] without an acknowledgement, its ends included as boundaries. */
        synchronized long longestGapNanos(long from, long to) {
            long previous = from;
            long longest = 0;
            for (int i = 0; i < size; i++) {
                if (nanos[i] > from && nanos[i] < to) {
                    longest = Math.max(longest, nanos[i] - previous);
                    previous = nanos[i];
                }
            }
            return Math.max(longest, to - previous);
        }
    }
}
