package dev.duro.core.engine;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;

/** Builds commit requests for scenarios: {@code transaction(1).at(0).reads("x").writes("y").local(0)}. */
final class Transactions {
    private final TxId tid;
    private long snapshot;
    private final List<Bytes> readSet = new ArrayList<>();
    private final List<Write> writeSet = new ArrayList<>();

    private Transactions(TxId tid) {
        this.tid = tid;
    }

    static Transactions transaction(long sequence) {
        return new Transactions(tid(sequence));
    }

    static TxId tid(long sequence) {
        return new TxId(0xC1, sequence);
    }

    static Bytes key(String name) {
        return Bytes.utf8(name);
    }

    /** The snapshot the transaction read at this partition. */
    Transactions at(long snapshotCounter) {
        this.snapshot = snapshotCounter;
        return this;
    }

    Transactions reads(String... keys) {
        for (String name : keys) {
            readSet.add(key(name));
        }
        return this;
    }

    Transactions writes(String... keys) {
        for (String name : keys) {
            writeSet.add(Write.put(key(name), Bytes.utf8(name + "@" + tid.sequence())));
        }
        return this;
    }

    Transactions writes(String name, String value) {
        writeSet.add(Write.put(key(name), Bytes.utf8(value)));
        return this;
    }

    CommitRequest local(int partition) {
        return new CommitRequest(tid, List.of(partition), snapshot, readSet, writeSet);
    }

    CommitRequest global(Integer... participants) {
        return new CommitRequest(tid, List.of(participants), snapshot, readSet, writeSet);
    }
}
