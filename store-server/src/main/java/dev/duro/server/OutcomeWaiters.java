package dev.duro.server;

import dev.duro.core.Outcome;
import dev.duro.core.OverloadedException;
import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;

/**
 * Commits this node coordinates, waiting for their answer. The answer arrives as an effect of this node's
 * replica of a participant partition: the outcome, or word that the transaction id was delivered before and its
 * outcome is no longer retained. Several waiters may share one transaction (a retried commit). Bounded: past
 * {@code server.inflight-commits-max} new commits are refused as overloaded.
 */
final class OutcomeWaiters {
    /**
     * What a waiting commit learns: {@code outcome}, or null when the partition no longer retains the outcome of
     * an earlier delivery of the same id (it may have committed; the commit was not certified again).
     */
    record Answer(TxId tid, @Nullable Outcome outcome) {
        boolean known() {
            return outcome != null;
        }
    }

    private final ConcurrentHashMap<TxId, List<CompletableFuture<Answer>>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final int maximum;

    OutcomeWaiters(int maximum) {
        this.maximum = maximum;
    }

    /** Registers interest in {@code tid}'s answer; the caller bounds the wait and must call {@link #forget}. */
    CompletableFuture<Answer> register(TxId tid) {
        if (count.incrementAndGet() > maximum) {
            count.decrementAndGet();
            throw new OverloadedException(
                    "too many commits in flight on this node (server.inflight-commits-max " + maximum + ")");
        }
        CompletableFuture<Answer> future = new CompletableFuture<>();
        waiting.compute(tid, (t, list) -> {
            List<CompletableFuture<Answer>> out = list == null ? new ArrayList<>(1) : list;
            out.add(future);
            return out;
        });
        return future;
    }

    void forget(TxId tid, CompletableFuture<Answer> future) {
        waiting.computeIfPresent(tid, (t, list) -> {
            if (list.remove(future)) {
                count.decrementAndGet();
            }
            return list.isEmpty() ? null : list;
        });
    }

    /** The transaction finished: every commit waiting for it gets its outcome. */
    void complete(Outcome outcome) {
        answer(new Answer(outcome.tid(), outcome));
    }

    /** A repeated commit of {@code tid} met a partition that no longer retains its outcome. */
    void completeUnknown(TxId tid) {
        answer(new Answer(tid, null));
    }

    private void answer(Answer answer) {
        List<CompletableFuture<Answer>> list = waiting.remove(answer.tid());
        if (list != null) {
            count.addAndGet(-list.size());
            for (CompletableFuture<Answer> future : list) {
                future.complete(answer);
            }
        }
    }

    int size() {
        return count.get();
    }
}
