package dev.duro.client;

import dev.duro.core.Bytes;
import dev.duro.core.DuroException;
import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.HostPort;
import dev.duro.core.wire.ServerReply;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Carries out {@link DuroClient#admin}: sends one administration command (users, roles, grants, the auth switch) to
 * the replicas of the auth record's partition, leader first, passing over a node that cannot serve it now for the
 * next, for a bounded number of rounds. It decides nothing about the command: the node checks it and answers.
 */
final class AdminCommands {
    /** Passes over the auth record's replicas an admin command makes before giving up. */
    private static final int ADMIN_ROUNDS = 5;

    private final ClusterViews views;
    private final Transport transport;
    private final RetryPolicy retryPolicy;

    AdminCommands(ClusterViews views, Transport transport, RetryPolicy retryPolicy) {
        this.views = views;
        this.transport = transport;
        this.retryPolicy = retryPolicy;
    }

    /** {@link DuroClient#admin}. */
    String run(String command, List<String> arguments, @Nullable char[] password) {
        Bytes secret = password == null ? null : Credentials.of("-", password).password();
        DuroException last = null;
        for (int round = 0; round < ADMIN_ROUNDS; round++) {
            ClusterView view = round == 0 ? views.current() : views.refresh();
            int partition = view.partitionOf(AdminRequest.AUTH_RECORD_KEY);
            List<HostPort> nodes = new ArrayList<>(view.replicas(partition));
            HostPort leader = view.leader(partition);
            if (leader != null) {
                nodes.remove(leader);
                nodes.add(0, leader); // its linearizable reads cost no round trip
            }
            for (HostPort node : nodes) {
                ServerReply reply;
                try {
                    reply = transport.await(
                            transport.call(node, id -> new AdminRequest(id, command, arguments, secret)));
                } catch (UnavailableException e) {
                    last = e;
                    continue;
                }
                if (reply instanceof AdminReply done) {
                    return done.text();
                }
                DuroException error = Transport.errorOf(reply);
                if (!(reply instanceof ErrorReply refused
                        && FrozenCommit.anotherCoordinatorMayAnswer(refused.code()))) {
                    throw error;
                }
                last = error;
            }
            RetryPolicy.pause(retryPolicy.backoff(round + 1));
        }
        throw new UnavailableException(
                "no replica of the auth record's partition carried out " + command + ": "
                        + (last == null ? "none known" : last.getMessage()),
                true);
    }
}
