package dev.duro.consensus;

import dev.duro.core.OverloadedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The commands a {@link GroupCommitter} holds for a partition's next log entries, in two lanes, each bounded by
 * {@code raft.queued-bytes-max}: commit requests, and the urgent lane of every other command (a global's decision,
 * an abort request, the next cut of the chain), which each entry drains first.
 *
 * <p>The urgent commands let transactions already in the log finish and let read-only transactions see them.
 * Behind a backlog of commit requests they waited for every entry queued before them, which under overload
 * stretched a global transaction, and the cut read-only transactions wait for, from one Raft round to many
 * (docs/replication.md, "Control commands go first"). Their order relative to this node's commit requests never
 * mattered: replicas follow the log's order, and commands from other nodes interleave anyway.
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

    private final int partition;
    private final int batchCommandsMax;
    private final int batchBytesMax;
    private final long queuedBytesMax;

    private final ArrayDeque<T> commits = new ArrayDeque<>();
    private final ArrayDeque<T> urgent = new ArrayDeque<>();
    private long commitBytes;
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
    void add(T item, boolean isUrgent) {
        refuseOver(isUrgent ? urgentBytes : commitBytes, item.bytes(), isUrgent);
        if (isUrgent) {
            urgent.addLast(item);
            urgentBytes += item.bytes();
        } else {
            commits.addLast(item);
            commitBytes += item.bytes();
        }
    }

    /**
     * Queues all of {@code items} or none: each at the end of its lane ({@code urgent[i]}), in their order. A lane
     * that is empty takes them whatever their size, as {@link #add} takes one item.
     *
     * @throws OverloadedException if a lane that already holds items would go past {@code raft.queued-bytes-max}
     */
    void addAll(List<T> items, boolean[] isUrgent) {
        long toUrgent = 0;
        long toCommits = 0;
        for (int i = 0; i < items.size(); i++) {
            if (isUrgent[i]) {
                toUrgent += items.get(i).bytes();
            } else {
                toCommits += items.get(i).bytes();
            }
        }
        refuseOver(urgentBytes, toUrgent, true);
        refuseOver(commitBytes, toCommits, false);
        for (int i = 0; i < items.size(); i++) {
            (isUrgent[i] ? urgent : commits).addLast(items.get(i));
        }
        urgentBytes += toUrgent;
        commitBytes += toCommits;
    }

    private void refuseOver(long waiting, long adding, boolean isUrgent) {
        if (waiting > 0 && waiting + adding > queuedBytesMax) {
            throw new OverloadedException("partition " + partition + " has " + waiting + " bytes of "
                    + (isUrgent ? "decisions and cuts" : "commit requests") + " queued for its log"
                    + " (raft.queued-bytes-max " + queuedBytesMax + ")");
        }
    }

    boolean isEmpty() {
        return urgent.isEmpty() && commits.isEmpty();
    }

    /** Decisions, abort requests and cuts queued: the next entry takes them first, and does not wait for company. */
    int urgentQueued() {
        return urgent.size();
    }

    /** Whether what is queued already fills a log entry, by count or by bytes. */
    boolean fillsAnEntry() {
        int count = urgent.size() + commits.size();
        return count >= batchCommandsMax || urgentBytes + commitBytes >= batchBytesMax;
    }

    /**
     * Removes the next log entry's commands: urgent ones first, then commit requests, in their order, up to
     * {@code raft.batch-commands-max} commands and {@code raft.batch-bytes-max} bytes (one command at least,
     * however large). Empty if nothing is queued.
     */
    List<T> nextBatch() {
        List<T> batch = new ArrayList<>();
        long urgentTaken = take(urgent, batch, 0);
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

    /** Removes and returns everything queued, urgent commands first. */
    List<T> drain() {
        List<T> all = new ArrayList<>(urgent);
        all.addAll(commits);
        urgent.clear();
        commits.clear();
        urgentBytes = 0;
        commitBytes = 0;
        return all;
    }
}
