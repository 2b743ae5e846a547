package dev.duro.core.sim;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.engine.CommitRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.Nullable;

/**
 * One transaction as its client ran it: the snapshot it fixed at each partition, what it read (and from which
 * writer), what it buffered, where its commit request was broadcast, and the outcome the client received.
 */
final class ClientTransaction {
    /** A read served by a replica. */
    record ObservedRead(Bytes key, int partition, long snapshot, long version, @Nullable TxId writer) {}

    /**
     * A scan served by a replica: the range it observed (all it asked, or up to the last key when its limit cut
     * it short) and the keys it found there, as reads.
     */
    record ObservedScan(KeyRange range, int partition, long snapshot, List<ObservedRead> found) {}

    /** A commit request and the partition whose log it goes to. */
    record Broadcast(int partition, CommitRequest request) {}

    private final TxId tid;
    private final TransactionPlan plan;
    private final Map<Integer, Long> snapshots = new TreeMap<>();
    private final List<ObservedRead> reads = new ArrayList<>();
    private final List<ObservedScan> scans = new ArrayList<>();
    private final Map<Bytes, Write> writes = new LinkedHashMap<>();
    private final TreeSet<Integer> sentTo = new TreeSet<>();
    private @Nullable Outcome clientOutcome;
    private boolean toldUnknown;
    private boolean completed;
    private boolean abandoned;
    private boolean clientCrashed;
    private int readOnlyRestarts;
    /** Simulated time the transaction began, and when its client learnt it committed (-1: it did not). */
    private long beganAt = -1;

    private long committedAt = -1;
    /** For a linearizable read-only transaction, the counters its cut had to cover; null otherwise. */
    private @Nullable long[] linearizableMinimum;
    /** The client's session when the transaction began: per partition, its newest acknowledged commit there. */
    private @Nullable long[] sessionAtBegin;

    ClientTransaction(TxId tid, TransactionPlan plan) {
        this.tid = tid;
        this.plan = plan;
    }

    TxId tid() {
        return tid;
    }

    void began(long now, long[] session) {
        beganAt = now;
        sessionAtBegin = session.clone();
    }

    long beganAt() {
        return beganAt;
    }

    long committedAt() {
        return committedAt;
    }

    @Nullable
    long[] sessionAtBegin() {
        return sessionAtBegin;
    }

    void makeLinearizable(long[] minimum) {
        linearizableMinimum = minimum.clone();
    }

    @Nullable
    long[] linearizableMinimum() {
        return linearizableMinimum;
    }

    /** The snapshots fixed at each partition, in partition order. */
    Map<Integer, Long> snapshots() {
        return snapshots;
    }

    TransactionPlan plan() {
        return plan;
    }

    @Nullable
    Long snapshotAt(int partition) {
        return snapshots.get(partition);
    }

    void fixSnapshot(int partition, long snapshot) {
        snapshots.put(partition, snapshot);
    }

    boolean hasSnapshots() {
        return !snapshots.isEmpty();
    }

    void recordRead(ObservedRead read) {
        reads.add(read);
    }

    List<ObservedRead> reads() {
        return reads;
    }

    void recordScan(ObservedScan scan) {
        scans.add(scan);
    }

    List<ObservedScan> scans() {
        return scans;
    }

    void buffer(Write write) {
        writes.put(write.key(), write);
    }

    Map<Bytes, Write> writes() {
        return writes;
    }

    /** Drops what a read-only transaction read so far, to read again at a newer cut. */
    void restartReads() {
        snapshots.clear();
        reads.clear();
        scans.clear();
        readOnlyRestarts++;
    }

    int readOnlyRestarts() {
        return readOnlyRestarts;
    }

    /**
     * One commit request per participant, participants ascending. Written keys count as read (ws ⊆ rs), so
     * whether they are repeated in the readset is left to {@code repeatWrittenKeys}, to exercise both forms.
     */
    List<Broadcast> commitRequests(boolean repeatWrittenKeys) {
        List<Integer> participants = plan.partitions();
        List<Broadcast> requests = new ArrayList<>(participants.size());
        for (int partition : participants) {
            List<Bytes> readSet = new ArrayList<>();
            for (ObservedRead read : reads) {
                if (read.partition() == partition && (repeatWrittenKeys || !writes.containsKey(read.key()))) {
                    readSet.add(read.key());
                }
            }
            List<Write> writeSet = new ArrayList<>();
            for (ObservedRead read : reads) {
                Write write = writes.get(read.key());
                if (read.partition() == partition && write != null) {
                    writeSet.add(write);
                }
            }
            List<Long> vector = new ArrayList<>(participants.size());
            for (int participant : participants) {
                vector.add(snapshots.get(participant));
            }
            List<KeyRange> ranges = new ArrayList<>();
            for (ObservedScan scan : scans) {
                if (scan.partition() == partition) {
                    ranges.add(scan.range());
                }
            }
            requests.add(
                    new Broadcast(partition, new CommitRequest(tid, participants, vector, readSet, writeSet, ranges)));
        }
        return requests;
    }

    void markSent(int partition) {
        sentTo.add(partition);
    }

    /** The partitions whose log received the commit request (empty: never submitted). */
    Set<Integer> sentTo() {
        return sentTo;
    }

    boolean submitted() {
        return !sentTo.isEmpty();
    }

    void receive(Outcome outcome, long now) {
        if (outcome.committed()) {
            committedAt = now;
        }
        receive(outcome);
    }

    void receive(Outcome outcome) {
        clientOutcome = outcome;
    }

    @Nullable
    /** The client was told the outcome is unknown (a retry after the partitions forgot it). */
    void receiveUnknown() {
        toldUnknown = true;
    }

    boolean toldUnknown() {
        return toldUnknown;
    }

    Outcome clientOutcome() {
        return clientOutcome;
    }

    /** A declared read-only transaction that read everything it planned. */
    void completeReadOnly() {
        completed = true;
    }

    boolean completedReadOnly() {
        return completed;
    }

    /** Given up before commit (its snapshot was garbage-collected): never submitted. */
    void abandon() {
        abandoned = true;
    }

    void clientCrashed() {
        clientCrashed = true;
    }

    @Override
    public String toString() {
        return Trace.name(tid) + " " + plan.kind() + (abandoned ? " ABANDONED" : "") + " partitions="
                + plan.partitions() + " snapshots=" + snapshots
                + " reads="
                + reads.stream()
                        .map(read -> read.key() + "@" + read.version() + "(by " + read.writer() + ")")
                        .toList()
                + " scans="
                + scans.stream()
                        .map(scan -> scan.range() + "@" + scan.snapshot() + ":"
                                + scan.found().stream()
                                        .map(read -> read.key() + "@" + read.version())
                                        .toList())
                        .toList()
                + " writes="
                + writes.values().stream()
                        .map(write -> write.key() + (write.isDelete() ? "=del" : "=put"))
                        .toList()
                + " sentTo=" + sentTo + (clientCrashed ? " CLIENT CRASHED" : "");
    }
}
