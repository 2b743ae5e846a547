package dev.duro.core.engine;

import dev.duro.core.Bytes;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.certify.Certifier;
import dev.duro.core.engine.PartitionEngine.Pending;
import dev.duro.core.store.MultiVersionStore;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * {@code PENDING} and {@code SC} of one partition replica: the delivered transactions that have not finished, in
 * delivery order with an index by id, and their finishing. A transaction finishes only at the head: a local one at
 * once, a global one once its decision was delivered or every participant's vote is known. Numbered transactions
 * therefore finish in number order, and each one installs its writes (if it committed) and moves {@code SC} by
 * exactly one, so every version at or below {@code SC} is final: no holes.
 *
 * <p>It does not certify, and takes no vote or decision in: {@link LogDelivery} and {@link VoteTracker} add to the
 * entries and then ask it to finish what it can ({@link #finishReady}).
 */
final class PendingQueue {
    private final int partition;
    private final EngineSettings settings;
    private final MultiVersionStore store;
    private final Certifier certifier;
    private final EffectBuffer effects;
    private final OutcomeRetention retention;
    private final GlobalTermination termination;
    private final DependencyFrontier frontiers;

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final Map<TxId, Pending> pendingByTid = new HashMap<>();
    private long snapshotCounter;

    PendingQueue(
            int partition,
            EngineSettings settings,
            MultiVersionStore store,
            Certifier certifier,
            EffectBuffer effects,
            OutcomeRetention retention,
            GlobalTermination termination,
            DependencyFrontier frontiers,
            long snapshotCounter) {
        this.partition = partition;
        this.settings = settings;
        this.store = store;
        this.certifier = certifier;
        this.effects = effects;
        this.retention = retention;
        this.termination = termination;
        this.frontiers = frontiers;
        this.snapshotCounter = snapshotCounter;
    }

    /** SC: the number of the last finished numbered transaction. */
    long snapshotCounter() {
        return snapshotCounter;
    }

    int size() {
        return pending.size();
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /** The pending transaction {@code tid}, or null if it is not pending here. */
    @Nullable
    Pending get(TxId tid) {
        return pendingByTid.get(tid);
    }

    boolean contains(TxId tid) {
        return pendingByTid.containsKey(tid);
    }

    /** The entries in delivery order, head first, for reading (the clock, the state codec). */
    ArrayDeque<Pending> entries() {
        return pending;
    }

    /** Appends a transaction delivered now, retained in the place of its delivery, and finishes what can finish. */
    void enqueue(Pending entry, long pscBefore) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
        retention.add(
                entry.request.tid(),
                Decided.unfinished(entry.number, entry.request.participants().size()),
                pscBefore);
        finishReady();
    }

    /** Finishes transactions from the head of PENDING while they can finish. */
    void finishReady() {
        while (!pending.isEmpty()) {
            Pending head = pending.peekFirst();
            if (head.votes == null) {
                finish(head, Outcome.committed(head.request.tid(), head.request.participants(), List.of(head.number)));
            } else if (head.decision != null) {
                finish(head, head.decision);
            } else if (head.votes.size() >= head.request.participants().size()
                    && GlobalTermination.missingVoters(head).isEmpty()) {
                finish(head, GlobalTermination.outcomeFromVotes(head));
            } else {
                return;
            }
        }
    }

    private void finish(Pending head, Outcome outcome) {
        pending.pollFirst();
        pendingByTid.remove(head.request.tid(), head);
        install(head.request, head.number, outcome);
        Vote ownVote = head.votes == null ? null : head.ownVote;
        if (head.votes != null) {
            GlobalTermination.checkVoteAgrees(head.ownVote, outcome);
        }
        boolean ownDecisionUnlogged = retention.recordFinished(head.request.tid(), head.number, outcome, ownVote);
        effects.emit(new Effect.Reply(outcome));
        if (ownDecisionUnlogged) {
            // finished from the votes, or from another participant's logged decision
            termination.trackUnlogged(outcome);
        }
    }

    /**
     * Reads ahead what delivering {@code request} will read in the store (MultiVersionStore.touch): its keys' chains,
     * which recording interns them from and installing writes, and, if it {@code installsAtOnce} as the next number,
     * the versions collection then reaches. Changes nothing.
     */
    int touch(CommitRequest request, boolean installsAtOnce) {
        return store.touch(request.writeSet(), installsAtOnce ? horizonAt(snapshotCounter + 1) : store.horizon());
    }

    /** The oldest readable snapshot once SC is {@code sc}: {@code engine.snapshots-retained} behind it. */
    private long horizonAt(long sc) {
        return sc - settings.snapshotsRetained();
    }

    /** Installs a finished numbered transaction's writes if it committed, and advances SC past its number. */
    void install(CommitRequest request, long number, Outcome outcome) {
        if (number == 0) {
            return;
        }
        if (number != snapshotCounter + 1) {
            // Numbers are given consecutively and numbered transactions finish in delivery order, which is number
            // order: each one moves SC by exactly one, so no version below SC is ever missing (no holes).
            throw new IllegalStateException(
                    "transaction " + request.tid() + " numbered " + number + " finishes at SC " + snapshotCounter);
        }
        if (outcome.committed()) {
            List<Write> writes = request.writeSet();
            // The window's objects for the keys, which are the store's where it held them (docs/performance.md,
            // "One object per key"); the request's own once the window has moved past the transaction.
            Bytes[] keys = certifier.writtenKeys(number);
            for (int i = 0, n = writes.size(); i < n; i++) {
                store.put(
                        keys != null ? keys[i] : writes.get(i).key(),
                        writes.get(i).value(),
                        number);
            }
            if (request.isGlobal()) {
                frontiers.addDependencies(outcome);
            }
        }
        snapshotCounter = number;
        store.collectGarbage(horizonAt(snapshotCounter));
    }

    /** Appends an entry as a restore read it: its outcome is retained already, and nothing finishes now. */
    void restore(Pending entry) {
        pending.addLast(entry);
        pendingByTid.put(entry.request.tid(), entry);
    }

    /**
     * Checks the invariants of {@code PENDING} and {@code SC} ({@link PartitionEngine#checkInvariants}, whose order
     * it keeps): the numbered entries are exactly {@code SC+1 .. psc}, every entry is in the index and none has
     * votes waiting in the buffer, the index holds nothing more, and nothing is installed above {@code SC}.
     */
    void checkInvariants(long psc) {
        long expected = snapshotCounter;
        for (Pending entry : pending) {
            if (entry.number != 0 && entry.number != ++expected) {
                throw broken("pending " + entry.request.tid() + " is numbered " + entry.number + ", expected "
                        + expected + " (SC " + snapshotCounter + ")");
            }
            if (pendingByTid.get(entry.request.tid()) != entry) {
                throw broken("pending " + entry.request.tid() + " is missing from the index");
            }
            if (termination.isBuffered(entry.request.tid())) {
                throw broken("votes for delivered " + entry.request.tid() + " wait in the buffer");
            }
        }
        if (expected != psc) {
            throw broken("numbers up to " + expected + " are finished or pending, PSC is " + psc);
        }
        if (pendingByTid.size() != pending.size()) {
            throw broken("PENDING holds " + pending.size() + ", its index " + pendingByTid.size());
        }
        if (store.newestVersion() > snapshotCounter) {
            throw broken("version " + store.newestVersion() + " installed above SC " + snapshotCounter);
        }
    }

    /** An invariant broken, worded as {@link PartitionEngine#checkInvariants} words every one. */
    IllegalStateException broken(String what) {
        return new IllegalStateException("partition " + partition + " engine invariant broken: " + what);
    }
}
