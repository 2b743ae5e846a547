/**
 * The node process: configuration ({@link dev.duro.server.ServerConfig}), the Netty endpoint that serves
 * clients, peers' votes and frontiers, and snapshot fetches on one port ({@link dev.duro.server.DuroServer},
 * {@link dev.duro.server.MessageHandler}), the {@link dev.duro.server.Coordinator} of commits, the {@link
 * dev.duro.server.ReadService}, the frontier publisher and snapshot-vector service, the engines' effects
 * ({@link dev.duro.server.ServerEffects}), and the operator's HTTP endpoint ({@link dev.duro.server.NodeHttp}:
 * health, readiness, metrics).
 *
 * <p>It reaches consensus only through the {@code consensus} module's API and never uses a Ratis type
 * ({@code ModuleBoundariesTest}); it never decides a transaction's outcome itself, it relays what the engines
 * decided (docs/architecture.md §2).
 */
package dev.duro.server;
