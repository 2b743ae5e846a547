/**
 * The cluster load generator: the papers' workloads ({@link dev.duro.bench.load.Workload}: read-write mixes,
 * YCSB, TPC-B, the social network) driven by closed-loop clients against a {@link dev.duro.bench.load.Target}
 * (Duro, classical DUR, or etcd), with throughput, latency, abort reasons, and server and client CPU per
 * committed transaction measured from separate processes ({@link dev.duro.bench.load.Report}).
 *
 * <p>It sends traffic only to loopback and stops by itself; nodes and peers it starts, it stops.
 */
package dev.duro.bench.load;
