package dev.duro.core.sim;

import dev.duro.core.Outcome;
import dev.duro.core.TxId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The clients of a run: starts them, replaces a crashed one with a fresh client (a new id) so the workload
 * goes on, and routes replies: every outcome an engine emits travels towards the transaction's client, which
 * takes the first that reaches it.
 */
final class ClientDirectory {
    private final Network network;
    private final Map<Long, Client> clients = new TreeMap<>();
    private SimulationContext context;
    private long nextId = 1;

    ClientDirectory(Network network) {
        this.network = network;
    }

    void start(SimulationContext simulation, int count) {
        this.context = simulation;
        for (int i = 0; i < count; i++) {
            spawn(simulation.dice().millis(0, 20));
        }
    }

    void replaceCrashed() {
        spawn(context.dice().millis(1, 50));
    }

    private void spawn(long delay) {
        Client client = new Client(nextId++, context);
        clients.put(client.id(), client);
        client.start(delay);
    }

    /** An engine decided a transaction: tell its client, if it still waits. */
    void replyReached(Outcome outcome) {
        Client client = clients.get(outcome.tid().clientId());
        if (client != null && client.awaits(outcome.tid())) {
            network.send(() -> client.onReply(outcome));
        }
    }

    /** An engine answered a repeated commit as unknown: tell its client, if it still waits. */
    void unknownReached(TxId tid) {
        Client client = clients.get(tid.clientId());
        if (client != null && client.awaits(tid)) {
            network.send(() -> client.onUnknown(tid));
        }
    }

    boolean allDone() {
        if (!context.workload().exhausted()) {
            return false;
        }
        for (Client client : clients.values()) {
            if (!client.done()) {
                return false;
            }
        }
        return true;
    }

    List<ClientTransaction> transactions() {
        List<ClientTransaction> all = new ArrayList<>();
        for (Client client : clients.values()) {
            all.addAll(client.transactions());
        }
        return all;
    }

    int count() {
        return clients.size();
    }
}
