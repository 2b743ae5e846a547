package dev.duro.bench.load;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.annotation.Nullable;

/**
 * A system under test: Duro (started here or reached with {@code --cluster}), classical DUR, or a peer store.
 * Closed-loop clients each open a {@link Session} and run plans through it.
 */
public interface Target extends AutoCloseable {
    /** A short name for reports, e.g. {@code duro-2x3}. */
    String name();

    /** The keys workloads choose from, grouped by the partition that holds them (one group if unpartitioned). */
    KeySpace keySpace(int keysPerPartition, double zipfSkew);

    /** A connection for one client thread. */
    Session session();

    /**
     * Commands and log entries the system has written so far, {@code {commands, entries}}, where it can tell
     * (batching figures); null otherwise.
     */
    default @Nullable long[] commandsAndEntries() {
        return null;
    }

    /**
     * The server processes (Duro's nodes, etcd's members) where they run apart from the load generator and are known:
     * none for nodes running in its JVM, or a cluster reached with {@code --cluster} and no {@code --server-pids}.
     * Their CPU is measured, and their compilers watched ({@link JitSettle}).
     */
    default List<Long> serverPids() {
        return List.of();
    }

    /**
     * CPU time (user + system, nanoseconds) the {@linkplain #serverPids server processes} have used so far; negative
     * when there are none to measure apart from the load generator.
     */
    default long serverCpuNanos() {
        List<Long> pids = serverPids();
        return pids.isEmpty() ? -1 : ProcessCpu.nanos(pids);
    }

    /** What failed a session's future: {@code failure} without the {@link CompletionException}s that wrap it. */
    static Throwable causeOf(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** Whether the servers run in the load generator's JVM, whose CPU then covers clients and servers alike. */
    default boolean serversInThisProcess() {
        return false;
    }

    /** What went wrong with the servers during the run (a node process that exited), for the report; empty if none. */
    default List<String> serverFailures() {
        return List.of();
    }

    @Override
    void close();

    /** Runs plans for one client thread. */
    interface Session extends AutoCloseable {
        /**
         * Runs one plan to its end. Returns normally when it committed; throws {@link PlanAbortedException} when
         * the system refused it (certification, a failed compare); any other exception is an error.
         */
        void execute(TxPlan plan);

        /**
         * Runs one plan without blocking the caller ({@code --async-clients}): completes normally when it committed,
         * exceptionally with {@link PlanAbortedException} when the system refused it, with anything else on an
         * error. Only Duro has an asynchronous path; {@link LoadOptions} refuses the option for the others.
         */
        default CompletableFuture<Void> executeAsync(TxPlan plan) {
            return CompletableFuture.failedFuture(
                    new UnsupportedOperationException("this system is driven by threads, not --async-clients"));
        }

        @Override
        default void close() {}
    }
}
