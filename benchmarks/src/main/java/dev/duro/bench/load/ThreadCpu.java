package dev.duro.bench.load;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where the servers' CPU goes, by component ({@code ./duro bench --thread-cpu}): each JVM thread's CPU between two
 * thread dumps of every node process, one as the measured window opens and one as it closes, summed into the
 * components a node's threads belong to (the apply threads, the Raft log worker, the event loops, the collector, ...).
 *
 * <p>The dumps are HotSpot's {@code Thread.print} through the JDK's {@code jcmd}, which names every thread in full,
 * the collector's and the compilers' included, with its CPU so far. Linux's own per-thread accounts would not do:
 * they cut names to 15 characters, and Ratis names its threads after the group first ({@code
 * b1@group-D2A2BE66653C-StateMachineUpdater}), so every Raft thread of a node reads the same there. A dump stops the
 * JVM at a safepoint while it walks the threads; the {@code jcmd} processes themselves run outside the servers'
 * account.
 *
 * <p>A thread that ends between the dumps is missing from the second, and its CPU from the account; {@link Account}
 * counts such threads so a report can say so. In 20 s windows of 2 × 3 at 64 clients 1 to 5 of a node's pooled
 * threads ended, of 60 or more.
 */
final class ThreadCpu {
    /** What a node's threads do, in the order a report lists them; a thread belongs to the first that matches. */
    enum Component {
        APPLY("apply", "apply (StateMachineUpdater: certify, install, reply)", "StateMachineUpdater"),
        LOG_WORKER("logWorker", "Raft log worker (append, fsync)", "RaftLogWorker"),
        APPENDERS("logAppenders", "log appenders (to followers)", "LogAppender"),
        RAFT_ROLES("raftRoles", "Raft roles (leader state, elections)", "LeaderState|FollowerState|LeaderElection"),
        EVENT_LOOPS("eventLoops", "Duro event loops (clients, peers)", "-(io|accept)-\\d+-\\d+$"),
        GRPC_LOOPS("grpcLoops", "gRPC event loops (Raft transport)", "^grpc-.*-(worker|boss)-"),
        GRPC_EXECUTORS("grpcExecutors", "gRPC executors (Raft handlers)", "^grpc-default-executor"),
        PROPOSALS("proposals", "proposals and batch linger", "-(proposals|batch-linger)$"),
        TIMERS("timers", "timers", "-timers$|^timer\\d+$|DelayScheduler|PauseMonitor"),
        SNAPSHOTS("snapshots", "snapshot writer", "(?i)snapshot"),
        COLLECTOR("collector", "garbage collection (G1)", "^GC Thread|^G1 "),
        COMPILER("compiler", "JIT compilers", "CompilerThread|^Sweeper thread$"),
        OTHER("other", "everything else", "");

        /** Its name in {@code result.json}. */
        final String key;

        final String label;
        private final Pattern names;

        Component(String key, String label, String names) {
            this.key = key;
            this.label = label;
            this.names = Pattern.compile(names);
        }

        /** The component thread {@code name} belongs to. */
        static Component of(String name) {
            for (Component component : values()) {
                if (component.names.matcher(name).find()) {
                    return component;
                }
            }
            return OTHER;
        }
    }

    /** One thread of a dump: its name, its native id and the CPU it has used so far. */
    record ThreadTime(String name, long nativeId, double cpuMillis) {}

    /**
     * The servers' CPU between two dumps, by component.
     *
     * @param millis CPU milliseconds per component, every component present, in {@link Component} order
     * @param threadsEnded threads of the first dump missing from the second, whose CPU is not counted
     */
    record Account(Map<Component, Double> millis, int threadsEnded) {
        Account {
            millis = Collections.unmodifiableMap(new EnumMap<>(millis));
        }

        double totalMillis() {
            return millis.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** {@code component}'s share of all the CPU accounted, in [0, 1]; 0 when nothing was. */
        double share(Component component) {
            double total = totalMillis();
            return total <= 0 ? 0 : millis.getOrDefault(component, 0.0) / total;
        }
    }

    /** The first dumps of a window: {@link #close()} takes the second and accounts between them. */
    static final class Window {
        private final List<Long> pids;
        private final Map<Long, List<ThreadTime>> before;

        private Window(List<Long> pids, Map<Long, List<ThreadTime>> before) {
            this.pids = pids;
            this.before = before;
        }

        /** Dumps every process again and accounts each thread's CPU since the first dumps. */
        Account close() throws IOException, InterruptedException {
            Map<Long, List<ThreadTime>> after = dumpAll(pids);
            Map<Component, Double> millis = zeroes();
            int ended = 0;
            for (long pid : pids) {
                Account one = account(before.getOrDefault(pid, List.of()), after.getOrDefault(pid, List.of()));
                one.millis().forEach((component, ms) -> millis.merge(component, ms, Double::sum));
                ended += one.threadsEnded();
            }
            return new Account(millis, ended);
        }
    }

    private ThreadCpu() {}

    /** Opens a window on {@code pids}: dumps each process's threads now. */
    static Window open(List<Long> pids) throws IOException, InterruptedException {
        List<Long> copy = List.copyOf(pids);
        return new Window(copy, dumpAll(copy));
    }

    /**
     * Each thread's CPU from {@code before} to {@code after}, summed by component. A thread is the same thread in both
     * when its native id and its name match; one only in {@code after} started in between, and all its CPU counts.
     */
    static Account account(List<ThreadTime> before, List<ThreadTime> after) {
        Map<String, ThreadTime> earlier = new HashMap<>();
        for (ThreadTime thread : before) {
            earlier.put(identity(thread), thread);
        }
        Map<Component, Double> millis = zeroes();
        int matched = 0;
        for (ThreadTime thread : after) {
            ThreadTime then = earlier.get(identity(thread));
            double used = thread.cpuMillis();
            if (then != null) {
                matched++;
                used = Math.max(0, used - then.cpuMillis());
            }
            millis.merge(Component.of(thread.name()), used, Double::sum);
        }
        return new Account(millis, before.size() - matched);
    }

    /** Every component at no CPU, to add to. */
    private static Map<Component, Double> zeroes() {
        Map<Component, Double> millis = new EnumMap<>(Component.class);
        for (Component component : Component.values()) {
            millis.put(component, 0.0);
        }
        return millis;
    }

    private static String identity(ThreadTime thread) {
        return thread.nativeId() + " " + thread.name();
    }

    /**
     * The threads of a {@code Thread.print} dump: every line that opens a thread's entry, {@code "name" #12 daemon
     * prio=5 os_prio=0 cpu=8996.55ms elapsed=120.50s tid=0x... nid=0xa5c runnable}, the JVM's own threads without the
     * number and priority. Native ids are read in hexadecimal ({@code 0x}, as Java 17 prints them) or in decimal. Lines
     * without a CPU figure are skipped.
     */
    static List<ThreadTime> parse(String dump) {
        List<ThreadTime> threads = new ArrayList<>();
        for (String line : dump.split("\n", -1)) {
            if (!line.startsWith("\"")) {
                continue;
            }
            int cpuAt = line.indexOf(" cpu=");
            int nameEnd = cpuAt < 0 ? -1 : line.lastIndexOf('"', cpuAt);
            int unitAt = cpuAt < 0 ? -1 : line.indexOf("ms", cpuAt);
            int nidAt = line.indexOf(" nid=", Math.max(cpuAt, 0));
            if (nameEnd <= 0 || unitAt < 0 || nidAt < 0) {
                continue;
            }
            int nidEnd = line.indexOf(' ', nidAt + 5);
            String nid = line.substring(nidAt + 5, nidEnd < 0 ? line.length() : nidEnd);
            try {
                threads.add(new ThreadTime(
                        line.substring(1, nameEnd),
                        nid.startsWith("0x") ? Long.parseLong(nid.substring(2), 16) : Long.parseLong(nid),
                        Double.parseDouble(line.substring(cpuAt + 5, unitAt))));
            } catch (NumberFormatException notAThreadLine) {
                // a stack frame or lock line that happens to start with a quote
            }
        }
        return threads;
    }

    /** Dumps every process at once, so the dumps of a window's edge are close together. */
    private static Map<Long, List<ThreadTime>> dumpAll(List<Long> pids) throws IOException, InterruptedException {
        Map<Long, List<ThreadTime>> dumps = new HashMap<>();
        for (Map.Entry<Long, String> answer :
                Jcmd.runAll(pids, pid -> List.of("Thread.print")).entrySet()) {
            List<ThreadTime> threads = parse(answer.getValue());
            if (threads.isEmpty()) {
                throw new IOException("jcmd " + answer.getKey() + " Thread.print listed no threads: "
                        + Jcmd.firstLine(answer.getValue()));
            }
            dumps.put(answer.getKey(), threads);
        }
        return dumps;
    }
}
