package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.Limits;
import dev.duro.core.SnapshotTooOldException;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ServerReply;
import dev.duro.core.wire.WireCodec;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import javax.annotation.Nullable;

/**
 * A client's requests to nodes: one connection per node on shared I/O threads, request ids, waiting with the
 * request timeout, and the typed exceptions that error replies and transport failures become.
 *
 * <p>On Linux the I/O threads use Netty's epoll transport, which took 2–9% less of the client's CPU per transaction
 * than NIO in the load generator (docs/performance.md, "The client on epoll"); where its native library does not
 * load (another system or processor, a temporary folder that may not hold executables), NIO.
 */
final class Transport implements AutoCloseable {
    private final WireCodec codec;
    private final EventLoopGroup group;
    private final Duration requestTimeout;
    private final int frameBytesMax;
    private final @Nullable SslContext tls;
    private final AtomicLong requestIds = new AtomicLong();
    private final Map<HostPort, NodeConnection> connections = new ConcurrentHashMap<>();
    private final @Nullable Credentials credentials;

    Transport(
            int ioThreads,
            Duration requestTimeout,
            int frameBytesMax,
            @Nullable Credentials credentials,
            @Nullable SslContext tls) {
        this.credentials = credentials;
        this.tls = tls;
        // Replies are decoded within the largest limits any cluster may have; the cluster's own are checked before
        // sending (DuroClient.limits()).
        this.codec = new WireCodec(Limits.CEILING);
        this.group = Epoll.isAvailable()
                ? new EpollEventLoopGroup(ioThreads, daemonThreads())
                : new NioEventLoopGroup(ioThreads, daemonThreads());
        this.requestTimeout = requestTimeout;
        this.frameBytesMax = frameBytesMax;
    }

    /** Whether the I/O threads run on epoll rather than NIO. */
    boolean onEpoll() {
        return group instanceof EpollEventLoopGroup;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    /** Sends the request {@code request} builds from a fresh id to {@code node}. */
    CompletableFuture<ServerReply> call(HostPort node, LongFunction<ClientRequest> request) {
        NodeConnection connection = connections.computeIfAbsent(
                node,
                address -> new NodeConnection(
                        address,
                        group,
                        codec,
                        requestTimeout,
                        frameBytesMax,
                        credentials,
                        requestIds::incrementAndGet,
                        tls));
        return connection.call(requestIds.incrementAndGet(), request);
    }

    /** Waits for a reply, turning transport failures into {@link DuroException}s. */
    ServerReply await(CompletableFuture<ServerReply> reply) {
        try {
            return reply.get(requestTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof DuroException duro) {
                throw duro;
            }
            throw new UnavailableException("request failed: " + cause, true);
        } catch (TimeoutException e) {
            throw new UnavailableException("no answer within " + requestTimeout.toMillis() + " ms", true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while waiting for the cluster", true);
        }
    }

    /** What failed a future: {@code failure} without the {@link CompletionException}s that wrap it. */
    static Throwable causeOf(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The exception an unexpected or error reply stands for. */
    static DuroException errorOf(ServerReply reply) {
        if (reply instanceof ErrorReply error) {
            if (error.code() == ErrorCode.SNAPSHOT_TOO_OLD) {
                return new SnapshotTooOldException(error.message());
            }
            if (error.code() == ErrorCode.OUTCOME_UNKNOWN) {
                return new UnavailableException(
                        "an earlier attempt may have committed and its outcome is no longer retained ("
                                + error.message() + "); committing again gets the same answer",
                        true);
            }
            if (error.code() == ErrorCode.PERMISSION_DENIED) {
                return new PermissionDeniedException(error.message());
            }
            if (error.code() == ErrorCode.UNAUTHENTICATED) {
                return new AuthenticationException(error.message());
            }
            return new ServerErrorException(error.code(), error.message());
        }
        return new ServerErrorException(ErrorCode.INTERNAL, "unexpected reply " + reply.type());
    }

    private static ThreadFactory daemonThreads() {
        AtomicLong count = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, "duro-client-io-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        for (NodeConnection connection : connections.values()) {
            connection.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
