package dev.duro.core.sim;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One deterministic run of a whole cluster in one thread: P partitions of R replicas and their clients, driven
 * by a seeded scheduler in simulated time.
 *
 * <ol>
 *   <li>Workload phase: clients run their transactions while faults are injected (lost, duplicated and late
 *       messages, replica crashes and restarts from snapshots, leader changes, stalls, client crashes between
 *       the broadcasts of a global commit).
 *   <li>Quiescence phase: faults stop and crashed replicas restart; the run goes on until every replica has
 *       delivered the whole log and nothing is pending, within a bounded number of steps.
 *   <li>Checks: see {@link InvariantChecks}.
 * </ol>
 *
 * <p>Nothing here reads a clock, sleeps or starts a thread, and every random choice comes from one seeded
 * {@link Dice}: the same seed replays the same run, event for event.
 */
final class Simulation {
    private static final long WORKLOAD_EVENTS_MAX = 5_000_000;
    private static final long WORKLOAD_MILLIS_MAX = 600_000;
    private static final long QUIESCENCE_EVENTS_MAX = 2_000_000;
    private static final long QUIESCENCE_MILLIS_MAX = 60_000;

    private Simulation() {}

    static SimulationResult run(SimulationConfig config, boolean tracing) {
        Scheduler scheduler = new Scheduler();
        Dice dice = new Dice(config.seed());
        Trace trace = new Trace(tracing, scheduler);
        Violations violations = new Violations();
        Counters counters = new Counters();
        Faults faults = new Faults(config);
        Network network = new Network(scheduler, dice, faults, counters);
        KeySpace keys = new KeySpace(config.partitions(), config.hotKeys(), config.coldKeys());
        ClientDirectory clients = new ClientDirectory(network);
        Cluster cluster = new Cluster(
                config,
                scheduler,
                dice,
                trace,
                network,
                violations,
                counters,
                clients::replyReached,
                clients::unknownReached);
        FaultInjector injector = new FaultInjector(config, scheduler, dice, trace, faults, cluster, counters);
        FrontierGossip frontiers =
                new FrontierGossip(scheduler, dice, trace, network, cluster, faults, counters, violations);
        Workload workload = new Workload(config, keys, dice);
        SimulationContext context = new SimulationContext(
                config, scheduler, dice, trace, violations, counters, faults, cluster, frontiers, workload, clients);
        try {
            cluster.start();
            new SnapshotSchedule(config, scheduler, dice, cluster, violations, counters).start();
            injector.start();
            frontiers.start();
            clients.start(context, config.clients());
            if (!scheduler.runUntil(clients::allDone, WORKLOAD_EVENTS_MAX, WORKLOAD_MILLIS_MAX)) {
                violations.add(
                        Violation.Kind.LIVENESS,
                        "the workload did not finish within " + WORKLOAD_EVENTS_MAX + " events / " + WORKLOAD_MILLIS_MAX
                                + " simulated ms");
            }
            counters.add("workload ms", scheduler.now());
            injector.stopFaults();
            long deadline = scheduler.now() + QUIESCENCE_MILLIS_MAX;
            if (!scheduler.runUntil(() -> cluster.quiescent() && clients.allDone(), QUIESCENCE_EVENTS_MAX, deadline)) {
                violations.add(
                        Violation.Kind.LIVENESS,
                        "the cluster did not quiesce within " + QUIESCENCE_MILLIS_MAX + " simulated ms after faults"
                                + " stopped");
            }
            counters.add("simulated ms", scheduler.now());
            counters.add("events", scheduler.executed());
            counters.add("clients", clients.count());
            new InvariantChecks(config, cluster, clients.transactions(), keys, violations, counters).run();
        } catch (RuntimeException | AssertionError e) {
            StringWriter stack = new StringWriter();
            e.printStackTrace(new PrintWriter(stack));
            violations.add(Violation.Kind.EXCEPTION, "at " + scheduler.now() + " ms: " + stack);
        }
        counters.increment("runs");
        return new SimulationResult(config, violations.list(), counters, trace.lines());
    }
}
