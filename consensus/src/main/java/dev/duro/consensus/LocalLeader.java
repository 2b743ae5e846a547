package dev.duro.consensus;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;

/**
 * A partition's log entry proposed straight to this node's own replica while it leads the partition's group. A
 * {@code RaftClient} would send it over a loopback RPC to the same process: serialised, framed, read back and parsed,
 * with a thread hop at each end, and the answer the same way back (docs/performance.md, "Proposals to a local
 * leader").
 *
 * <p>Only a proposal the replica answers with success is answered here. Any other answer (not the leader any more,
 * not ready yet, too many pending requests, closing) sends the entry again through the partition's client, which
 * finds the leader and retries as it always has; an entry appended by a leader that then stepped down may so be
 * appended twice, as with the client's own retries, and the engine certifies a transaction id once
 * (docs/window-safety.md).
 */
final class LocalLeader {
    private final RaftServer server;
    private final RaftGroupId group;
    /** Whether this node replicates the partition; asking the server for a group it lacks costs an exception. */
    private final BooleanSupplier hosted;
    /** Where answers are handled: never the applier thread that completes them (see {@link #propose}). */
    private final Executor answers;

    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final AtomicLong committed = new AtomicLong();

    LocalLeader(RaftServer server, RaftGroupId group, BooleanSupplier hosted, Executor answers) {
        this.server = server;
        this.group = group;
        this.hosted = hosted;
        this.answers = answers;
    }

    /**
     * Proposes {@code message} to the local replica if it leads and is ready, and returns true; {@code answered} is
     * called once, with null when the entry is committed and applied, else {@code elsewhere} runs instead. Returns
     * false, having done nothing, when the local replica does not lead now.
     */
    boolean propose(Message message, Consumer<Throwable> answered, Runnable elsewhere) {
        RaftClientAsynchronousProtocol leader = leader();
        if (leader == null) {
            return false;
        }
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(server.getId())
                .setGroupId(group)
                .setCallId(callIds.incrementAndGet())
                .setMessage(message)
                .setType(RaftClientRequest.writeRequestType())
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = leader.submitClientRequestAsync(request);
        } catch (IOException | RuntimeException notRunning) {
            resend(elsewhere, answered);
            return true;
        }
        // The replica answers on its applier thread, right after applying the entry; the next entry is proposed
        // from the answer, and appending it there would hold up the log.
        reply.whenCompleteAsync(
                (answer, failure) -> {
                    if (failure == null && answer.isSuccess()) {
                        committed.incrementAndGet();
                        answered.accept(null);
                    } else {
                        resend(elsewhere, answered);
                    }
                },
                this::answerOn);
        return true;
    }

    /** A client that cannot even send (it is closed) fails the entry rather than leave it unanswered. */
    private static void resend(Runnable elsewhere, Consumer<Throwable> answered) {
        try {
            elsewhere.run();
        } catch (RuntimeException e) {
            answered.accept(e);
        }
    }

    /** A node that is closing has shut its answer thread: the last answers are handled where they arrive. */
    private void answerOn(Runnable task) {
        try {
            answers.execute(task);
        } catch (RejectedExecutionException closing) {
            task.run();
        }
    }

    /** Entries proposed here and answered with success. */
    long committed() {
        return committed.get();
    }

    private @Nullable RaftClientAsynchronousProtocol leader() {
        if (!hosted.getAsBoolean()) {
            return null;
        }
        RaftServer.Division division;
        try {
            division = server.getDivision(group);
        } catch (IOException notHere) {
            return null;
        }
        if (!division.getInfo().isLeader()
                || !division.getInfo().isLeaderReady()
                || !(division instanceof RaftClientAsynchronousProtocol protocol)) {
            return null;
        }
        return protocol;
    }
}
