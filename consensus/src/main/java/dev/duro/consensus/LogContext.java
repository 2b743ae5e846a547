package dev.duro.consensus;

import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.MDC;

/**
 * Which node and which partition a thread works for, in the logging context (SLF4J's MDC), so that every line
 * says so: several nodes share one JVM in tests and benchmarks, and a node's partitions share its process.
 *
 * <p>A thread that only ever works for one node, or one partition of one node, is {@linkplain #enter entered}
 * once (the state machine's applier, a snapshot writer, a node's event loops and timers). A shared thread that
 * works for a partition briefly opens a {@linkplain #partition scope} and closes it, which restores what it had.
 * The engine knows nothing of this: it is single-threaded and called under these threads.
 */
public final class LogContext {
    /** The MDC key of the node id, e.g. {@code n1}. */
    public static final String NODE = "node";
    /** The MDC key of the partition number, e.g. {@code 0}. */
    public static final String PARTITION = "partition";

    private LogContext() {}

    /** Marks the calling thread as working for {@code node} from now on, and for no one partition. */
    public static void enter(String node) {
        MDC.put(NODE, node);
        MDC.remove(PARTITION);
    }

    /**
     * Marks the calling thread as working for {@code partition} of {@code node} from now on. Cheap when it already
     * does (the common case: called for every batch on a thread that serves one partition).
     */
    public static void enter(String node, int partition) {
        String number = Integer.toString(partition);
        if (!node.equals(MDC.get(NODE))) {
            MDC.put(NODE, node);
        }
        if (!number.equals(MDC.get(PARTITION))) {
            MDC.put(PARTITION, number);
        }
    }

    /**
     * Marks the calling thread as working for {@code partition} of {@code node} until the scope is closed, which
     * restores the thread's previous context: for shared threads.
     */
    public static Scope partition(String node, int partition) {
        Scope scope = new Scope(MDC.get(NODE), MDC.get(PARTITION));
        MDC.put(NODE, node);
        MDC.put(PARTITION, Integer.toString(partition));
        return scope;
    }

    /** A scope that marks the calling thread as working for {@code node} (no partition) until it is closed. */
    public static Scope node(String node) {
        Scope scope = new Scope(MDC.get(NODE), MDC.get(PARTITION));
        MDC.put(NODE, node);
        MDC.remove(PARTITION);
        return scope;
    }

    /** Daemon threads named {@code name} that work for {@code node} for their whole life. */
    public static ThreadFactory daemonThreads(String name, String node) {
        return daemonThreads(name, () -> node, -1);
    }

    /**
     * Daemon threads named {@code node-name} that work for {@code partition} of {@code node} (or for the node alone
     * if {@code partition} is negative) for their whole life. The node is read when a thread is created: a state
     * machine learns its node only when Ratis initializes it, before it starts any thread.
     */
    public static ThreadFactory daemonThreads(String name, Supplier<String> node, int partition) {
        return runnable -> {
            String id = node.get();
            Thread thread = new Thread(
                    () -> {
                        if (partition < 0) {
                            enter(id);
                        } else {
                            enter(id, partition);
                        }
                        runnable.run();
                    },
                    id + "-" + name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Wraps another factory (Netty's, for its event loops): its threads work for {@code node}. */
    public static ThreadFactory forNode(String node, ThreadFactory threads) {
        return runnable -> threads.newThread(() -> {
            enter(node);
            runnable.run();
        });
    }

    /** Restores a thread's previous node and partition when closed. */
    public static final class Scope implements AutoCloseable {
        private final @Nullable String node;
        private final @Nullable String partition;

        private Scope(@Nullable String node, @Nullable String partition) {
            this.node = node;
            this.partition = partition;
        }

        @Override
        public void close() {
            restore(NODE, node);
            restore(PARTITION, partition);
        }

        private static void restore(String key, @Nullable String value) {
            if (value == null) {
                MDC.remove(key);
            } else {
                MDC.put(key, value);
            }
        }
    }
}
