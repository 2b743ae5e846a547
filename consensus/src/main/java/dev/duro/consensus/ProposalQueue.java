package dev.duro.consensus;

import dev.duro.core.OverloadedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The commands a {@link GroupCommitter} holds for a partition's next log entries, in three lanes that each entry
 * drains in this order ({@link Lane}): control commands (an abort request, the next cut of the chain), decisions of
 * global transactions, and commit requests. The first two share one {@code raft.queued-bytes-max} bound, commit
 * requests have another.
 *
 * <p>Control commands and decisions let transactions already in the log finish and let read-only transactions see
 * them. Behind a backlog of commit requests they waited for every entry queued before them, which under overload
 * stretched a global transaction, and the cut read-only transactions wait for, from one Raft round to many
 * (docs/replication.md, "Control commands go first"). Their order relative to this node's commit requests never
 * mattered: replicas follow the log's order, and commands from other nodes interleave anyway. Only control commands
 * make an entry go without waiting for company: a decision is a record for replicas that missed a vote and for the
 * retention of outcomes, which every replica finishes without in the common case, so it rides in the next entry
 * (docs/replication.md, "Decisions ride along").
 *
 * <p>Not thread-safe: the committer guards it.
 *
 * @param <T> what the caller keeps with each command (its encoding and whom to tell)
 */
final class ProposalQueue<T extends ProposalQueue.Sized> {
    /** An item with the number of bytes it adds to a log entry. */
    interface Sized {
        int bytes();
    }

    /** Where a command waits for its entry; an entry takes the lanes in this order. */
    enum Lane {
        /**
         * Abort requests and cuts of the chain, which a stuck global transaction and read-only transactions wait
         * for: an entry that holds one goes at once.
         */
        CONTROL,
        /** Decisions of global transactions: ahead of commit requests, but they never hurry an entry. */
        DECISION,
        /** Commit requests. */
        COMMIT
    }

    private final int partition;
    private final int batchCommandsMax;
    private final int batchBytesMax;
    private final long queuedBytesMax;

    private final ArrayDeque<T> control = new ArrayDeque<>();
    private final ArrayDeque<T> decisions = new ArrayDeque<>();
    private final ArrayDeque<T> commits = new ArrayDeque<>();
    private long commitBytes;
    /** The bytes of the control and decision lanes, which share a bound. */
    private long urgentBytes;

    ProposalQueue(int partition, ConsensusSettings settings) {
        this(partition, settings.batchCommandsMax(), settings.batchBytesMax(), settings.queuedBytesMax());
    }

    ProposalQueue(int partition, int batchCommandsMax, int batchBytesMax, long queuedBytesMax) {
        this.partition = partition;
        this.batchCommandsMax = batchCommandsMax;
        this.batchBytesMax = batchBytesMax;
        this.queuedBytesMax = queuedBytesMax;
    }

    /**
     * Queues {@code item} at the end of its lane. An empty lane takes any one item, however large: the client
     * limits and {@code server.frame-bytes-max} bound a command, and refusing one larger than the whole bound would
     * refuse it forever (the client would retry it as overloaded, at every node, until it gave up).
     *
     * @throws OverloadedException if its lane already holds items and would go past {@code raft.queued-bytes-max}
     */
    void add(T item, Lane lane) {
        boolean urgent = lane != Lane.COMMIT;
        refuseOver(urgent ? urgentBytes : commitBytes, item.bytes(), urgent);
        deque(lane).addLast(item);
        if (urgent) {
            urgentBytes += item.bytes();
        } else {
            commitBytes += item.bytes();
        }
    }

    /**
     * Queues all of {@code items} or none: each at the end of its lane ({@code lanes[i]}), in their order. A lane
     * that is empty takes them whatever their size, as {@link #add} takes one item.
     *
     * @throws OverloadedException if a lane that already holds items would go past {@code raft.queued-bytes-max}
     */
    void addAll(List<T> items, Lane[] lanes) {
        long toUrgent = 0;
        long toCommits = 0;
        for (int i = 0; i < items.size(); i++) {
            if (lanes[i] != Lane.COMMIT) {
                toUrgent += items.get(i).bytes();
            } else {
                toCommits += items.get(i).bytes();
            }
        }
        refuseOver(urgentBytes, toUrgent, true);
        refuseOver(commitBytes, toCommits, false);
        for (int i = 0; i < items.size(); i++) {
            deque(lanes[i]).addLast(items.get(i));
        }
        urgentBytes += toUrgent;
        commitBytes += toCommits;
    }

    private ArrayDeque<T> deque(Lane lane) {
        return switch (lane) {
            case CONTROL -> control;
            case DECISION -> decisions;
            case COMMIT -> commits;
        };
    }

    private void refuseOver(long waiting, long adding, boolean isUrgent) {
        if (waiting > 0 && waiting + adding > queuedBytesMax) {
            throw new OverloadedException("partition " + partition + " has " + waiting + " bytes of "
                    + (isUrgent ? "decisions and cuts" : "commit requests") + " queued for its log"
                    + " (raft.queued-bytes-max " + queuedBytesMax + ")");
        }
    }

    boolean isEmpty() {
        return control.isEmpty() && decisions.isEmpty() && commits.isEmpty();
    }

    /** Abort requests and cuts queued: the next entry takes them first, and does not wait for company. */
    int controlQueued() {
        return control.size();
    }

    /** Control commands and decisions queued: they come first in the next entry. */
    int urgentQueued() {
        return control.size() + decisions.size();
    }

    /** Whether what is queued already fills a log entry, by count or by bytes. */
    boolean fillsAnEntry() {
        int count = urgentQueued() + commits.size();
        return count >= batchCommandsMax || urgentBytes + commitBytes >= batchBytesMax;
    }

    /**
     * Removes the next log entry's commands: control commands first, then decisions, then commit requests, each in
     * their order, up to {@code raft.batch-commands-max} commands and {@code raft.batch-bytes-max} bytes (one command
     * at least, however large). Empty if nothing is queued.
     */
    List<T> nextBatch() {
        List<T> batch = new ArrayList<>();
        long urgentTaken = take(control, batch, 0);
        urgentTaken += take(decisions, batch, urgentTaken);
        urgentBytes -= urgentTaken;
        commitBytes -= take(commits, batch, urgentTaken);
        return batch;
    }

    private long take(ArrayDeque<T> from, List<T> batch, long batchBytes) {
        long moved = 0;
        while (!from.isEmpty() && batch.size() < batchCommandsMax) {
            T next = from.peekFirst();
            if (!batch.isEmpty() && batchBytes + moved + next.bytes() > batchBytesMax) {
                break;
            }
            from.pollFirst();
            moved += next.bytes();
            batch.add(next);
        }
        return moved;
    }

    /** Removes and returns everything queued, in the order entries would take it. */
    List<T> drain() {
        List<T> all = new ArrayList<>(control);
        all.addAll(decisions);
        all.addAll(commits);
        control.clear();
        decisions.clear();
        commits.clear();
        urgentBytes = 0;
        commitBytes = 0;
        return all;
    }
}
