package dev.duro.server;

import dev.duro.core.OverloadedException;
import dev.duro.core.TxId;
import dev.duro.core.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Commits this node coordinates, waiting for their outcome. The outcome arrives as a reply effect from this
 * node's replica of a participant partition; several waiters may share one transaction (a retried commit).
 * Bounded: past {@code server.inflight-commits-max} new commits are refused as overloaded.
 */
final class OutcomeWaiters {
    private final ConcurrentHashMap<TxId, List<CompletableFuture<Outcome>>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final int maximum;

    OutcomeWaiters(int maximum) {
        this.maximum = maximum;
    }

    /** Registers interest in {@code tid}'s outcome; the caller bounds the wait and must call {@link #forget}. */
    CompletableFuture<Outcome> register(TxId tid) {
        if (count.incrementAndGet() > maximum) {
            count.decrementAndGet();
            throw new OverloadedException(
                    "too many commits in flight on this node (server.inflight-commits-max " + maximum + ")");
        }
        CompletableFuture<Outcome> future = new CompletableFuture<>();
        waiting.compute(tid, (t, list) -> {
            List<CompletableFuture<Outcome>> out = list == null ? new ArrayList<>(1) : list;
            out.add(future);
            return out;
        });
        return future;
    }

    void forget(TxId tid, CompletableFuture<Outcome> future) {
        waiting.computeIfPresent(tid, (t, list) -> {
            if (list.remove(future)) {
                count.decrementAndGet();
            }
            return list.isEmpty() ? null : list;
        });
    }

    void complete(Outcome outcome) {
        List<CompletableFuture<Outcome>> list = waiting.remove(outcome.tid());
        if (list != null) {
            count.addAndGet(-list.size());
            for (CompletableFuture<Outcome> future : list) {
                future.complete(outcome);
            }
        }
    }

    int size() {
        return count.get();
    }
}
