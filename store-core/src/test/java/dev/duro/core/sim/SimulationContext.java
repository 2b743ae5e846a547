package dev.duro.core.sim;

/** The parts of one run that clients use. */
record SimulationContext(
        SimulationConfig config,
        Scheduler scheduler,
        Dice dice,
        Trace trace,
        Violations violations,
        Counters counters,
        Faults faults,
        Cluster cluster,
        FrontierGossip frontiers,
        Workload workload,
        ClientDirectory clients) {}
