/**
 * The {@code ./duro} client commands on top of the client API: single puts and gets, the interactive shell, the
 * demo workload, the replicas' status and the wait for a ready cluster, parsed by picocli ({@link DuroCli}).
 *
 * <p>It is an application of {@code dev.duro.client}, in a module of its own (store-cli) so that the client library
 * stays a plain library: nothing in {@code dev.duro.client} depends on this package. Only {@link DuroCli#main} may
 * end the process; the commands return their exit status instead.
 */
package dev.duro.cli;
