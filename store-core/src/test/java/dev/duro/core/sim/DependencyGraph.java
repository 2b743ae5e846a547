package dev.duro.core.sim;

import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A directed graph of transactions that can name one of its cycles. One edge is kept per ordered pair. */
final class DependencyGraph {
    private static final int UNVISITED = 0;
    private static final int ON_PATH = 1;
    private static final int DONE = 2;

    /** Sorted by transaction so the cycle reported for a history does not depend on insertion order. */
    private final Map<TxId, Map<TxId, SerializabilityChecker.Edge>> successors = new TreeMap<>();

    void addNode(TxId tid) {
        successors.computeIfAbsent(tid, t -> new LinkedHashMap<>());
    }

    void addEdge(SerializabilityChecker.Edge edge) {
        addNode(edge.to());
        successors.computeIfAbsent(edge.from(), t -> new LinkedHashMap<>()).putIfAbsent(edge.to(), edge);
    }

    /** The edges of one cycle, in order, or an empty list if the graph is acyclic. */
    List<SerializabilityChecker.Edge> findCycle() {
        Map<TxId, Integer> state = new TreeMap<>();
        for (TxId root : successors.keySet()) {
            if (state.getOrDefault(root, UNVISITED) == UNVISITED) {
                List<SerializabilityChecker.Edge> cycle = searchFrom(root, state);
                if (!cycle.isEmpty()) {
                    return cycle;
                }
            }
        }
        return List.of();
    }

    /** Iterative depth-first search (no recursion, so long chains cannot overflow the stack). */
    private List<SerializabilityChecker.Edge> searchFrom(TxId root, Map<TxId, Integer> state) {
        List<TxId> nodes = new ArrayList<>();
        List<List<SerializabilityChecker.Edge>> pendingEdges = new ArrayList<>();
        List<SerializabilityChecker.Edge> path = new ArrayList<>();
        nodes.add(root);
        pendingEdges.add(edgesToVisit(root));
        state.put(root, ON_PATH);
        while (!nodes.isEmpty()) {
            int top = nodes.size() - 1;
            List<SerializabilityChecker.Edge> edges = pendingEdges.get(top);
            if (edges.isEmpty()) {
                state.put(nodes.remove(top), DONE);
                pendingEdges.remove(top);
                if (!path.isEmpty()) {
                    path.remove(path.size() - 1);
                }
                continue;
            }
            SerializabilityChecker.Edge edge = edges.remove(edges.size() - 1);
            int target = state.getOrDefault(edge.to(), UNVISITED);
            if (target == ON_PATH) {
                int start = nodes.indexOf(edge.to());
                List<SerializabilityChecker.Edge> cycle = new ArrayList<>(path.subList(start, path.size()));
                cycle.add(edge);
                return cycle;
            }
            if (target == UNVISITED) {
                state.put(edge.to(), ON_PATH);
                nodes.add(edge.to());
                pendingEdges.add(edgesToVisit(edge.to()));
                path.add(edge);
            }
        }
        return List.of();
    }

    /** The node's out-edges, reversed: they are taken from the end, so they are visited in insertion order. */
    private List<SerializabilityChecker.Edge> edgesToVisit(TxId node) {
        List<SerializabilityChecker.Edge> edges =
                new ArrayList<>(successors.get(node).values());
        Collections.reverse(edges);
        return edges;
    }
}
