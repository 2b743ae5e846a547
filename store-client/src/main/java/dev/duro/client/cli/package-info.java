/**
 * The {@code ./duro} command line on top of the client API: single puts and gets, the interactive shell and the
 * demo workload. It is an application of {@code dev.duro.client}, nothing in the client library depends on it,
 * and it is the only place in the client jar that may end the process.
 */
package dev.duro.client.cli;
