package dev.duro.core.sim;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Turns what clients did and what the partitions decided into the committed history the serializability
 * checker reads: every committed update transaction with the versions it read and installed, and every
 * completed read-only transaction with the versions it read.
 */
final class HistoryBuilder {
    private HistoryBuilder() {}

    static List<TransactionRecord> committed(List<ClientTransaction> transactions, Cluster cluster, KeySpace keys) {
        List<TransactionRecord> history = new ArrayList<>();
        for (ClientTransaction transaction : transactions) {
            if (transaction.plan().declaredReadOnly()) {
                if (transaction.completedReadOnly()) {
                    history.add(new TransactionRecord(
                            transaction.tid(), reads(transaction), List.of(), scans(transaction)));
                }
                continue;
            }
            Outcome outcome = decided(transaction.tid(), transaction.plan().partitions(), cluster);
            if (outcome != null && outcome.committed()) {
                List<TransactionRecord.Write> writes = new ArrayList<>();
                for (Write write : transaction.writes().values()) {
                    long version = outcome.versionAt(keys.partitionOf(write.key()));
                    writes.add(new TransactionRecord.Write(write.key().toUtf8(), version, write.isDelete()));
                }
                history.add(new TransactionRecord(transaction.tid(), reads(transaction), writes, scans(transaction)));
            }
        }
        return history;
    }

    private static List<TransactionRecord.Read> reads(ClientTransaction transaction) {
        List<TransactionRecord.Read> reads = new ArrayList<>();
        for (ClientTransaction.ObservedRead read : transaction.reads()) {
            reads.add(new TransactionRecord.Read(read.key().toUtf8(), read.version(), read.writer(), read.snapshot()));
        }
        return reads;
    }

    private static List<TransactionRecord.Scan> scans(ClientTransaction transaction) {
        List<TransactionRecord.Scan> scans = new ArrayList<>();
        for (ClientTransaction.ObservedScan scan : transaction.scans()) {
            List<TransactionRecord.Read> found = new ArrayList<>();
            for (ClientTransaction.ObservedRead read : scan.found()) {
                found.add(new TransactionRecord.Read(
                        read.key().toUtf8(), read.version(), read.writer(), read.snapshot()));
            }
            scans.add(new TransactionRecord.Scan(scan.range(), scan.snapshot(), found));
        }
        return scans;
    }

    /** The outcome the first participant's first replica holds (the checks confirm all others agree). */
    @Nullable
    static Outcome decided(TxId tid, List<Integer> participants, Cluster cluster) {
        return cluster.decision(tid);
    }
}
