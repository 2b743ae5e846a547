package dev.duro.server;

import dev.duro.client.ClusterView;
import dev.duro.client.DuroClient;
import dev.duro.client.ServerErrorException;
import dev.duro.client.Transaction;
import dev.duro.client.TransactionAbortedException;
import dev.duro.client.UnavailableException;
import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Load for fault tests: threads that each commit a stream of new keys, one per transaction, through the real
 * client, and remember what the cluster acknowledged. A commit whose outcome is unknown (no coordinator
 * answered, or one answered "not ready") is remembered as uncertain: it may or may not have committed, but it
 * can never hold another value. Certification never aborts such writes (every key is new), so an abort is a
 * failure, as is any other exception.
 */
final class UniqueKeyWriters implements AutoCloseable {
    private static final int COMMITS_PER_THREAD_MAX = 100_000;

    private final DuroClient client;
    private final ClusterView view;
    private final String prefix;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, String> uncertain = new ConcurrentHashMap<>();
    /** Keys of global commits aborted by an abort request (S-DUR §IV-F): they must never become visible. */
    private final Map<String, String> aborted = new ConcurrentHashMap<>();

    private final AtomicIntegerArray acknowledgedPerPartition;
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    private final boolean global;
    private final int valueBytes;

    UniqueKeyWriters(DuroClient client, String prefix, int threadCount) {
        this(client, prefix, threadCount, false);
    }

    /**
     * @param global each transaction also writes a companion key in another partition, so (with two or more
     *     partitions) every commit is a global transaction certified by two partitions
     */
    UniqueKeyWriters(DuroClient client, String prefix, int threadCount, boolean global) {
        this(client, prefix, threadCount, global, 0);
    }

    /**
     * @param valueBytes pads every value to this many bytes (shorter values are left as they are), so that a few
     *     commits fill a log segment or make a large snapshot
     */
    UniqueKeyWriters(DuroClient client, String prefix, int threadCount, boolean global, int valueBytes) {
        this.client = client;
        this.global = global;
        this.valueBytes = valueBytes;
        this.view = client.cluster();
        this.prefix = prefix;
        this.acknowledgedPerPartition = new AtomicIntegerArray(view.partitionCount());
        for (int t = 0; t < threadCount; t++) {
            int thread = t;
            threads.add(new Thread(() -> write(thread), "writer-" + prefix + t));
        }
        threads.forEach(Thread::start);
    }

    private void write(int thread) {
        for (int i = 0; i < COMMITS_PER_THREAD_MAX && !stopping.get(); i++) {
            String key = prefix + thread + "-" + i;
            String value = padded("value-" + thread + "-" + i);
            String companion = global ? companionOf(key) : null;
            try (Transaction tx = client.begin()) {
                tx.put(key, value);
                if (companion != null) {
                    tx.put(companion, value);
                }
                tx.commit();
                acknowledge(key, value);
                if (companion != null) {
                    acknowledge(companion, value);
                }
            } catch (UnavailableException e) {
                uncertain.put(key, value);
                if (companion != null) {
                    uncertain.put(companion, value);
                }
                Await.pause(20); // the cluster is changing: do not spin
            } catch (ServerErrorException e) {
                if (e.code() == ErrorCode.NOT_READY
                        || e.code() == ErrorCode.SNAPSHOT_NOT_READY
                        || e.code() == ErrorCode.OVERLOADED) {
                    uncertain.put(key, value);
                    if (companion != null) {
                        uncertain.put(companion, value);
                    }
                    Await.pause(20);
                } else {
                    failures.add(key + ": " + e);
                }
            } catch (TransactionAbortedException e) {
                if (companion != null && e.reason().kind() == AbortReason.Kind.ABORT_REQUESTED) {
                    // A participant's leader died with the part in flight; the other partition gave up on it.
                    aborted.put(key, value);
                    aborted.put(companion, value);
                    continue;
                }
                failures.add(key + " aborted, though no other transaction touches it: " + e.getMessage());
            } catch (RuntimeException e) {
                failures.add(key + ": " + e);
            }
        }
    }

    private String padded(String value) {
        return value.length() >= valueBytes ? value : value + "-".repeat(valueBytes - value.length());
    }

    private void acknowledge(String key, String value) {
        acknowledged.put(key, value);
        acknowledgedPerPartition.incrementAndGet(view.partitionOf(Bytes.utf8(key)));
    }

    /** A key of another partition than {@code key}'s, derived from it. */
    private String companionOf(String key) {
        int home = view.partitionOf(Bytes.utf8(key));
        for (int attempt = 0; attempt < 1_000; attempt++) {
            String candidate = key + "-pair-" + attempt;
            if (view.partitionOf(Bytes.utf8(candidate)) != home) {
                return candidate;
            }
        }
        throw new IllegalStateException("no key of another partition near " + key);
    }

    int acknowledgedCount() {
        return acknowledged.size();
    }

    int acknowledgedIn(int partition) {
        return acknowledgedPerPartition.get(partition);
    }

    /** Waits until {@code more} further commits in {@code partition} are acknowledged. */
    void awaitMoreCommitsIn(int partition, int more, String when) {
        int target = acknowledgedIn(partition) + more;
        Await.until(more + " more commits in partition " + partition + " " + when, () -> {
            if (!failures.isEmpty()) {
                throw new AssertionError("writers failed: " + failures);
            }
            int now = acknowledgedIn(partition);
            return now >= target
                    ? Await.Poll.done(now)
                    : Await.Poll.notYet(now + " of " + target + " acknowledged, " + uncertain.size() + " uncertain");
        });
    }

    /** Waits until {@code more} further commits are acknowledged in every partition. */
    void awaitMoreCommits(int more, String when) {
        for (int p = 0; p < view.partitionCount(); p++) {
            awaitMoreCommitsIn(p, more, when);
        }
    }

    /** Stops the writers and waits for them. */
    void stop() {
        stopping.set(true);
        Await.joinAll(threads);
    }

    Map<String, String> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    Map<String, String> aborted() {
        return Map.copyOf(aborted);
    }

    Map<String, String> uncertain() {
        return Map.copyOf(uncertain);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() {
        stop();
    }
}
