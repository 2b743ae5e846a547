package dev.duro.bench.load;

/**
 * Stops what the load generator started (node processes, etcd members) when its JVM exits without closing them:
 * Ctrl-C, SIGTERM, a failure. Left behind, they would go on taking the machine's cores and ports.
 */
final class ExitHook {
    private final Thread thread;

    /** Runs {@code stop} when the JVM exits, on a thread named {@code name}, unless {@link #cancel}led first. */
    ExitHook(String name, Runnable stop) {
        thread = new Thread(stop, name);
        Runtime.getRuntime().addShutdownHook(thread);
    }

    /**
     * What it stops was closed: nothing is left to do at exit. Does nothing on the hook's own thread, or once the JVM
     * exits (the hook then runs anyway, and must find what it stops closed).
     */
    void cancel() {
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(thread);
        } catch (IllegalStateException exiting) {
            // The JVM is already exiting: the hook runs, or ran.
        }
    }
}
