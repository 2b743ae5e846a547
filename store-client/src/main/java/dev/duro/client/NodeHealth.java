package dev.duro.client;

import dev.duro.core.wire.HostPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which nodes recently could not serve this client: unreachable, lagging past their read wait, or unable to build
 * a consistent cut. Such a node is tried last for a short while, so that a node catching up after a restart
 * does not make every new transaction wait out its bound before failing over. It is still tried when every
 * other node failed too, and once its time is up.
 */
final class NodeHealth {
    /** How long a node that failed is tried last; about one server-side read wait. */
    static final long AVOID_NANOS = 2_000_000_000L;

    private final LongSupplier nanoClock;
    private final Map<HostPort, Long> avoidUntil = new ConcurrentHashMap<>();

    NodeHealth(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** {@code node} could not serve a request that another node may serve. */
    void failed(HostPort node) {
        avoidUntil.put(node, nanoClock.getAsLong() + AVOID_NANOS);
    }

    /** {@code node} served a request. */
    void served(HostPort node) {
        avoidUntil.remove(node);
    }

    boolean avoided(HostPort node) {
        Long until = avoidUntil.get(node);
        if (until == null) {
            return false;
        }
        if (until - nanoClock.getAsLong() > 0) {
            return true;
        }
        avoidUntil.remove(node, until);
        return false;
    }

    /**
     * The order to try {@code nodes} in: a rotation starting at {@code first} (so load spreads over them), with
     * the nodes that recently failed moved to the end in the same rotation order.
     */
    List<HostPort> order(List<HostPort> nodes, int first) {
        int n = nodes.size();
        List<HostPort> healthy = new ArrayList<>(n);
        List<HostPort> avoided = new ArrayList<>(0);
        for (int i = 0; i < n; i++) {
            HostPort node = nodes.get(Math.floorMod(first + i, n));
            (avoided(node) ? avoided : healthy).add(node);
        }
        healthy.addAll(avoided);
        return healthy;
    }
}
