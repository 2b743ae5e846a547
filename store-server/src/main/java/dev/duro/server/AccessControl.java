package dev.duro.server;

import dev.duro.core.wire.AdminReply;
import dev.duro.core.wire.AdminRequest;
import dev.duro.core.wire.AuthenticateRequest;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ServerReply;
import dev.duro.server.auth.AdminCommands;
import dev.duro.server.auth.AdminException;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.PasswordHash;
import dev.duro.server.auth.Passwords;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authentication and authorization of client requests (docs/auth.md), in front of the dispatch: answers {@link
 * AuthenticateRequest}s and {@link AdminRequest}s itself, and lets any other request through only if the auth
 * rules of the moment ({@link AccessRules}) allow it. Checked before anything is read or proposed, so a refused
 * commit appends nothing.
 */
final class AccessControl {
    private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);

    private final AuthRecord record;
    private final Passwords passwords;
    private final Executor hashing;
    private final Duration waitMax;
    private final boolean peerIdentityRequired;

    /**
     * @param hashing runs password hashing and verification (slow by design), off the I/O threads
     * @param waitMax how long a request waits for the first read of the auth record at start-up
     * @param peerIdentityRequired whether only connections whose certificate proved a cluster node ({@link Principals#peer}) may read the
     *     whole auth record (when the transport verifies peers); without it, as for votes, any connection may
     */
    AccessControl(
            AuthRecord record, Passwords passwords, Executor hashing, Duration waitMax, boolean peerIdentityRequired) {
        this.record = record;
        this.passwords = passwords;
        this.hashing = hashing;
        this.waitMax = waitMax;
        this.peerIdentityRequired = peerIdentityRequired;
    }

    /** Serves {@code request} from {@code channel}: itself, or by {@code next} once the rules allow it. */
    CompletableFuture<ServerReply> serve(
            Channel channel, ClientRequest request, Function<ClientRequest, CompletableFuture<ServerReply>> next) {
        AuthTable table = record.current();
        if (table == null) {
            // Starting: no request is served under rules not yet read.
            return record.firstLoad()
                    .orTimeout(waitMax.toMillis(), TimeUnit.MILLISECONDS)
                    .handle((loaded, failure) -> failure)
                    .thenCompose(failure -> failure == null
                            ? serve(channel, request, next)
                            : CompletableFuture.completedFuture(new ErrorReply(
                                    request.requestId(),
                                    ErrorCode.NOT_READY,
                                    "this node has not read the auth record yet (partition " + record.partition()
                                            + " has no leader, or is catching up); try another node")));
        }
        if (request instanceof AuthenticateRequest authenticate) {
            return authenticate(channel, table, authenticate);
        }
        if (request instanceof AdminRequest admin) {
            return admin(channel, table, admin);
        }
        ErrorReply refusal = AccessRules.check(table, Principals.user(channel, table), request);
        return refusal == null ? next.apply(request) : CompletableFuture.completedFuture(refusal);
    }

    // ---- authentication ----

    /**
     * Verifies the password against the stored hash. A user unknown here or a password that does not match is
     * checked once more against a fresh read of the record: this node's copy may predate the user's creation or
     * a new password by up to a refresh period.
     */
    private CompletableFuture<ServerReply> authenticate(Channel channel, AuthTable table, AuthenticateRequest request) {
        return verify(channel, table, request)
                .thenCompose(reply -> reply != null
                        ? CompletableFuture.completedFuture(reply)
                        : record.refreshNow()
                                .thenCompose(fresh -> verify(channel, fresh, request))
                                .handle((again, failure) -> again != null ? again : refused(request)));
    }

    /** The reply to a verified password, or null (a completed future of it) for a refusal. */
    private CompletableFuture<ServerReply> verify(Channel channel, AuthTable table, AuthenticateRequest request) {
        AuthTable.User user = table.users().get(request.user());
        PasswordHash hash = user == null ? null : user.password();
        if (user == null || hash == null) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            return CompletableFuture.supplyAsync(
                    () -> {
                        if (!passwords.verify(user.name(), request.password(), hash)) {
                            return null;
                        }
                        channel.attr(Principals.PASSWORD).set(hash);
                        channel.attr(Principals.USER).set(user.name());
                        return new AdminReply(request.requestId(), "authenticated as " + user.name(), null);
                    },
                    hashing);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(overloaded(request.requestId()));
        }
    }

    private static ErrorReply refused(AuthenticateRequest request) {
        // One answer for an unknown user and a wrong password: the reply tells no one which names exist.
        LOG.info("authentication as '{}' refused", request.user());
        return new ErrorReply(
                request.requestId(),
                ErrorCode.UNAUTHENTICATED,
                "user name or password not accepted for user '" + request.user() + "'; the connection keeps its"
                        + " previous identity and may authenticate again");
    }

    // ---- administration ----

    private CompletableFuture<ServerReply> admin(Channel channel, AuthTable table, AdminRequest request) {
        long requestId = request.requestId();
        String user = Principals.user(channel, table);
        String command = request.command();
        if (command.equals(AdminCommands.TABLE)) {
            boolean allowed = peerIdentityRequired
                    ? Principals.peer(channel) != null || (user != null && table.isRoot(user))
                    : true;
            if (!allowed) {
                return CompletableFuture.completedFuture(new ErrorReply(
                        requestId, ErrorCode.PERMISSION_DENIED, "only cluster nodes read the whole auth record"));
            }
            return record.tablePayload()
                    .handle((payload, failure) -> failure == null
                            ? new AdminReply(requestId, "auth record", payload)
                            : new ErrorReply(
                                    requestId,
                                    ErrorCode.NOT_READY,
                                    "cannot read the auth record: "
                                            + unwrap(failure).getMessage()));
        }
        if (table.enabled() && (user == null || !table.isRoot(user))) {
            return CompletableFuture.completedFuture(new ErrorReply(
                    requestId,
                    user == null ? ErrorCode.UNAUTHENTICATED : ErrorCode.PERMISSION_DENIED,
                    (user == null ? "an unauthenticated connection" : "user '" + user + "'")
                            + " may not run admin commands: auth is enabled and only a user with the role 'root'"
                            + " may"));
        }
        if (command.equals(AdminCommands.STATUS)) {
            return record.readFresh()
                    .handle((read, failure) -> failure == null
                            ? new AdminReply(requestId, read.table().describe(), null)
                            : new ErrorReply(
                                    requestId,
                                    ErrorCode.NOT_READY,
                                    "cannot read the auth record: "
                                            + unwrap(failure).getMessage()));
        }
        CompletableFuture<AdminCommands.Change> prepared;
        try {
            prepared = CompletableFuture.supplyAsync(
                    () -> AdminCommands.prepare(command, request.arguments(), request.secret(), passwords), hashing);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(overloaded(requestId));
        }
        return prepared.thenCompose(
                        change -> record.change(change).handle((done, failure) -> changed(requestId, change, failure)))
                .exceptionally(failure -> changed(requestId, null, failure));
    }

    private static ServerReply changed(
            long requestId, @Nullable AdminCommands.Change change, @Nullable Throwable failure) {
        if (failure == null) {
            return change != null
                    ? new AdminReply(requestId, "done: " + change.description(), null)
                    : new ErrorReply(requestId, ErrorCode.NOT_READY, "the auth record could not be changed");
        }
        Throwable cause = unwrap(failure);
        if (cause instanceof RejectedExecutionException) {
            return overloaded(requestId);
        }
        if (cause instanceof AdminException refused) {
            return new ErrorReply(requestId, ErrorCode.MALFORMED_FRAME, refused.getMessage());
        }
        if (cause instanceof AuthRecordChanges.ChangeFailed failed && failed.reply != null) {
            return new ErrorReply(requestId, failed.reply.code(), failed.reply.message());
        }
        if (cause instanceof AuthRecordChanges.ChangeFailed failed) {
            return new ErrorReply(requestId, ErrorCode.UNKNOWN_PARTITION, failed.getMessage());
        }
        return new ErrorReply(requestId, ErrorCode.NOT_READY, "the auth record could not be changed: " + cause);
    }

    private static ErrorReply overloaded(long requestId) {
        return new ErrorReply(requestId, ErrorCode.OVERLOADED, "too many authentications and admin commands waiting");
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
