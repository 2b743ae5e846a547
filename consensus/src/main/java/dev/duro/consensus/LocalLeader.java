package dev.duro.consensus;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
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
 * leader"). What to do with an answer other than success is the {@link GroupCommitter}'s.
 */
final class LocalLeader {
    private final RaftServer server;
    private final RaftGroupId group;
    /** Whether this node replicates the partition; asking the server for a group it lacks costs an exception. */
    private final BooleanSupplier hosted;
    /** Where answers are handled: never the applier thread that completes them (see {@link #submit}). */
    private final Executor answers;
    /** {@link #answers}, or the caller's thread once it is shut: made once rather than per proposal. */
    private final Executor answerThread = this::answerOn;

    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();

    LocalLeader(RaftServer server, RaftGroupId group, BooleanSupplier hosted, Executor answers) {
        this.server = server;
        this.group = group;
        this.hosted = hosted;
        this.answers = answers;
    }

    /**
     * Proposes {@code message} to the local replica if it leads and is ready: its reply, completed once the entry is
     * committed and applied (or failed, when the replica refuses it or is not running), and handed to the answer
     * thread; null, having done nothing, when the local replica does not lead now.
     */
    @Nullable
    CompletableFuture<RaftClientReply> submit(Message message) {
        RaftClientAsynchronousProtocol leader = leader();
        if (leader == null) {
            return null;
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
            reply = CompletableFuture.failedFuture(notRunning);
        }
        // The replica answers on its applier thread, right after applying the entry; the next entry is proposed
        // from the answer, and appending it there would hold up the log.
        return reply.whenCompleteAsync((answer, failure) -> {}, answerThread);
    }

    /** A node that is closing has shut its answer thread: the last answers are handled where they arrive. */
    private void answerOn(Runnable task) {
        try {
            answers.execute(task);
        } catch (RejectedExecutionException closing) {
            task.run();
        }
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
        if (!division.getInfo().isLeaderReady() || !(division instanceof RaftClientAsynchronousProtocol protocol)) {
            return null;
        }
        return protocol;
    }
}
