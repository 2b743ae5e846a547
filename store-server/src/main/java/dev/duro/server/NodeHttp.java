package dev.duro.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.duro.consensus.ConsensusNode;
import dev.duro.consensus.GroupStatus;
import dev.duro.consensus.LogContext;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's HTTP endpoint for operators (README, "Metrics and health"), on {@code server.http-port}:
 *
 * <ul>
 *   <li>{@code GET /health}: 200 while the process serves;
 *   <li>{@code GET /ready}: 200 once every local replica has a leader and has applied everything it knows to be
 *       committed, else 503 naming the replicas that are not; it reads state only, never writes;
 *   <li>{@code GET /metrics}: {@link DuroMetrics} in Prometheus's text format.
 * </ul>
 *
 * One thread serves it, apart from the client port's event loops, so a scrape never delays a transaction.
 */
final class NodeHttp implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeHttp.class);

    private final HttpServer server;
    private final ExecutorService thread;

    /** {@code consensus} gives null until the node's consensus has started. */
    NodeHttp(String nodeId, String host, int port, DuroMetrics metrics, Supplier<ConsensusNode> consensus)
            throws IOException {
        thread = Executors.newSingleThreadExecutor(LogContext.daemonThreads("http", nodeId));
        server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.setExecutor(thread);
        server.createContext("/health", exchange -> answer(exchange, 200, "up\n", "text/plain"));
        server.createContext("/ready", exchange -> {
            String notReady = notReady(consensus.get());
            answer(exchange, notReady.isEmpty() ? 200 : 503, notReady.isEmpty() ? "ready\n" : notReady, "text/plain");
        });
        server.createContext(
                "/metrics",
                exchange -> answer(exchange, 200, metrics.scrape(), "text/plain; version=0.0.4; charset=utf-8"));
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Empty when ready; otherwise one line per replica that is not. */
    static String notReady(@Nullable ConsensusNode consensus) {
        if (consensus == null) {
            return "starting\n";
        }
        StringBuilder out = new StringBuilder();
        for (int partition : consensus.topology().partitionsOf(consensus.nodeId())) {
            GroupStatus status = consensus.groupStatus(partition);
            if (status == null) {
                out.append("partition ").append(partition).append(": no replica yet\n");
            } else if (status.leader() == null) {
                out.append("partition ").append(partition).append(": no leader known\n");
            } else if (!status.caughtUp()) {
                out.append("partition ")
                        .append(partition)
                        .append(": applied ")
                        .append(status.appliedIndex())
                        .append(" of ")
                        .append(status.commitIndex())
                        .append(" committed\n");
            }
        }
        return out.toString();
    }

    private static void answer(HttpExchange exchange, int status, String body, String type) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("HTTP answer to {} failed: {}", exchange.getRemoteAddress(), e.toString());
        }
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
