package dev.duro.client;

import dev.duro.core.DuroException;
import dev.duro.core.wire.ClusterInfoReply;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ServerReply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;

/**
 * A client's picture of the cluster's layout ({@link ClusterView}), fetched from the seeds on first use and kept
 * fresh: leaders move although nothing fails, and commits must follow them.
 */
final class ClusterViews {
    /** How old the view may grow before {@link #current()} refreshes it in the background. */
    static final Duration REFRESH_AFTER = Duration.ofSeconds(2);

    private final List<HostPort> seeds;
    private final Transport transport;

    private volatile @Nullable ClusterView view;
    /** When {@link #view} was fetched ({@link System#nanoTime()}). */
    private volatile long fetchedNanos;
    /** Whether a background refresh is under way. */
    private final AtomicBoolean refreshing = new AtomicBoolean();

    ClusterViews(List<HostPort> seeds, Transport transport) {
        this.seeds = List.copyOf(seeds);
        this.transport = transport;
    }

    /**
     * The layout as last seen, fetched now if never. A view older than {@link #REFRESH_AFTER} is refreshed in the
     * background (this call does not wait), so commits follow leaders that moved although nothing failed: a node
     * that led a partition before it crashed serves again as a follower, and would otherwise go on coordinating
     * this client's commits while it catches up.
     */
    ClusterView current() {
        ClusterView current = view;
        if (current == null) {
            return refresh();
        }
        if (System.nanoTime() - fetchedNanos > REFRESH_AFTER.toNanos() && refreshing.compareAndSet(false, true)) {
            CompletableFuture<Void> unused = CompletableFuture.runAsync(() -> {
                try {
                    refresh();
                } catch (RuntimeException keepTheLastView) {
                    // nothing answered: the last view stays, and failures on the request path fail over as before
                } finally {
                    refreshing.set(false);
                }
            });
        }
        return current;
    }

    /** Asks the nodes for the current layout; tries the seeds and every node known before giving up. */
    ClusterView refresh() {
        List<HostPort> candidates = new ArrayList<>(seeds);
        ClusterView current = view;
        if (current != null) {
            candidates.addAll(current.allNodes());
        }
        DuroException last = null;
        for (HostPort node : candidates.stream().distinct().toList()) {
            try {
                ServerReply reply = transport.await(transport.call(node, ClusterInfoRequest::new));
                if (reply instanceof ClusterInfoReply info) {
                    ClusterView fresh = new ClusterView(info);
                    fetchedNanos = System.nanoTime();
                    view = fresh;
                    return fresh;
                }
                last = Transport.errorOf(reply);
            } catch (DuroException e) {
                last = e;
            }
            if (last instanceof AuthenticationException refused) {
                throw refused; // every node has the same rules: asking the next one changes nothing
            }
        }
        throw new UnavailableException(
                "no node answered with the cluster layout (tried " + candidates + "): "
                        + (last == null ? "no candidates" : last.getMessage()),
                false);
    }
}
