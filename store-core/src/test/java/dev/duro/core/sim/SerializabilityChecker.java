package dev.duro.core.sim;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Checks that a history of committed transactions is conflict-serializable by looking for a cycle in its
 * dependency graph (Adya's direct serialization graph).
 *
 * <p>Edges, for each key:
 *
 * <ul>
 *   <li><b>ww</b>: the writer of a version precedes the writer of the next version (the version order of a key is
 *       the commit-number order at its partition);
 *   <li><b>wr</b>: the writer of a version precedes every transaction that read that version;
 *   <li><b>rw</b>: a transaction that read a version precedes the writer of the next version (anti-dependency).
 * </ul>
 *
 * <p>A scan of a range is a read of every key in it: of the keys it found, at the versions it found, and of every
 * other key of the range that some committed transaction wrote, as absent at the scan's snapshot. So an insert into
 * a scanned range after the scan's snapshot is an rw edge from the scanner to the inserter, and phantoms show up as
 * cycles through such edges; a scan that missed a key its snapshot holds breaks the read rule.
 *
 * <p>The history is serializable iff this graph is acyclic. Reads that cannot be attributed to a committed
 * write (a version nobody committed, or a value naming a different writer) are reported as anomalies too,
 * since the graph cannot represent them.
 */
final class SerializabilityChecker {
    enum EdgeKind {
        WW,
        WR,
        RW
    }

    record Edge(TxId from, TxId to, EdgeKind kind, String key) {
        @Override
        public String toString() {
            return from + " -" + kind.name().toLowerCase(java.util.Locale.ROOT) + "(" + key + ")-> " + to;
        }
    }

    /** The verdict: anomalies that are not cycles, and one cycle if the graph has any (empty otherwise). */
    record Result(List<String> anomalies, List<Edge> cycle) {
        Result {
            anomalies = List.copyOf(anomalies);
            cycle = List.copyOf(cycle);
        }

        boolean serializable() {
            return anomalies.isEmpty() && cycle.isEmpty();
        }

        List<TxId> cycleTransactions() {
            List<TxId> tids = new ArrayList<>();
            for (Edge edge : cycle) {
                tids.add(edge.from());
            }
            return tids;
        }

        String describe() {
            StringBuilder out = new StringBuilder();
            if (!cycle.isEmpty()) {
                out.append("dependency cycle of ").append(cycle.size()).append(" edges:");
                for (Edge edge : cycle) {
                    out.append("\n    ").append(edge);
                }
            }
            for (String anomaly : anomalies) {
                out.append(out.length() == 0 ? "" : "\n").append(anomaly);
            }
            return out.toString();
        }
    }

    private SerializabilityChecker() {}

    static Result check(Collection<TransactionRecord> committed) {
        List<String> anomalies = new ArrayList<>();
        Map<String, NavigableMap<Long, Version>> versionsByKey = versionOrder(committed, anomalies);
        DependencyGraph graph = new DependencyGraph();
        for (TransactionRecord transaction : committed) {
            graph.addNode(transaction.tid());
        }
        for (Map.Entry<String, NavigableMap<Long, Version>> key : versionsByKey.entrySet()) {
            TxId previous = null;
            for (Version version : key.getValue().values()) {
                if (previous != null) {
                    graph.addEdge(new Edge(previous, version.writer(), EdgeKind.WW, key.getKey()));
                }
                previous = version.writer();
            }
        }
        for (TransactionRecord reader : committed) {
            for (TransactionRecord.Read read : reader.reads()) {
                addReadEdges(reader.tid(), read, versionsByKey, graph, anomalies);
            }
            for (TransactionRecord.Scan scan : reader.scans()) {
                for (TransactionRecord.Read read : readsOfScan(reader.tid(), scan, versionsByKey.keySet(), anomalies)) {
                    addReadEdges(reader.tid(), read, versionsByKey, graph, anomalies);
                }
            }
        }
        return new Result(anomalies, graph.findCycle());
    }

    /** The scan as point reads: what it found, and every other written key of its range as absent. */
    private static List<TransactionRecord.Read> readsOfScan(
            TxId reader, TransactionRecord.Scan scan, java.util.Set<String> writtenKeys, List<String> anomalies) {
        Map<String, TransactionRecord.Read> reads = new TreeMap<>();
        for (TransactionRecord.Read found : scan.found()) {
            if (!scan.range().contains(Bytes.utf8(found.key()))) {
                anomalies.add(reader + "'s scan of " + scan.range() + " returned " + found.key() + ", outside it");
            }
            reads.put(found.key(), found);
        }
        for (String key : writtenKeys) {
            if (scan.range().contains(Bytes.utf8(key))) {
                reads.putIfAbsent(key, new TransactionRecord.Read(key, 0, null, scan.snapshot()));
            }
        }
        return new ArrayList<>(reads.values());
    }

    /** One installed version of a key. */
    private record Version(TxId writer, boolean deletes) {}

    private static Map<String, NavigableMap<Long, Version>> versionOrder(
            Collection<TransactionRecord> committed, List<String> anomalies) {
        Map<String, NavigableMap<Long, Version>> versionsByKey = new TreeMap<>();
        for (TransactionRecord transaction : committed) {
            for (TransactionRecord.Write write : transaction.writes()) {
                if (write.version() <= 0) {
                    anomalies.add(transaction.tid() + " installed " + write.key() + " at non-positive version "
                            + write.version());
                    continue;
                }
                Version earlier = versionsByKey
                        .computeIfAbsent(write.key(), k -> new TreeMap<>())
                        .putIfAbsent(write.version(), new Version(transaction.tid(), write.deletes()));
                if (earlier != null && !earlier.writer().equals(transaction.tid())) {
                    anomalies.add("version " + write.version() + " of " + write.key() + " installed by both "
                            + earlier.writer() + " and " + transaction.tid());
                }
            }
        }
        return versionsByKey;
    }

    private static void addReadEdges(
            TxId reader,
            TransactionRecord.Read read,
            Map<String, NavigableMap<Long, Version>> versionsByKey,
            DependencyGraph graph,
            List<String> anomalies) {
        NavigableMap<Long, Version> versions = versionsByKey.getOrDefault(read.key(), new TreeMap<>());
        long version = read.version();
        if (read.snapshot() != TransactionRecord.Read.UNKNOWN_SNAPSHOT) {
            Map.Entry<Long, Version> newest = versions.floorEntry(read.snapshot());
            long expected = newest == null ? 0 : newest.getKey();
            if (read.observedWriter() == null
                    && (newest == null || newest.getValue().deletes())) {
                version = expected; // absent: the deletion (or the initial state) the snapshot shows
            } else if (read.version() != expected) {
                anomalies.add(reader + " read " + read.key() + " at snapshot " + read.snapshot() + " and got version "
                        + read.version() + " (value of " + read.observedWriter() + "), but the newest committed"
                        + " version at that snapshot is " + expected
                        + (newest == null ? "" : " by " + newest.getValue().writer()));
                return;
            }
        }
        if (version > 0) {
            Version installed = versions.get(version);
            if (installed == null) {
                anomalies.add(reader + " read version " + version + " of " + read.key()
                        + ", which no committed transaction installed (observed writer "
                        + read.observedWriter() + ")");
                return;
            }
            TxId writer = installed.writer();
            if (read.observedWriter() != null && !read.observedWriter().equals(writer)) {
                anomalies.add(reader + " read " + read.key() + " at version " + version + " with the value of "
                        + read.observedWriter() + ", but " + writer + " installed that version");
            }
            if (!writer.equals(reader)) {
                graph.addEdge(new Edge(writer, reader, EdgeKind.WR, read.key()));
            }
        } else if (read.observedWriter() != null) {
            anomalies.add(reader + " read the initial version of " + read.key() + " but saw the value of "
                    + read.observedWriter());
        }
        Map.Entry<Long, Version> next = versions.higherEntry(version);
        if (next != null && !next.getValue().writer().equals(reader)) {
            graph.addEdge(new Edge(reader, next.getValue().writer(), EdgeKind.RW, read.key()));
        }
    }
}
