package dev.duro.server;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import dev.duro.core.wire.ClientRequest;
import dev.duro.core.wire.ClusterInfoRequest;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.MultiReadRequest;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ReplicaStatusRequest;
import dev.duro.core.wire.ScanRequest;
import dev.duro.core.wire.SnapshotVectorRequest;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.Grant;
import dev.duro.server.auth.Permission;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The auth rules an ordinary client request must pass (docs/auth.md), as a pure function of the auth table, the
 * connection's user and the request; {@link AccessControl} applies them in front of the dispatch.
 *
 * <p>Rules, in order: keys under {@link AuthTable#RESERVED_PREFIX} are refused to every ordinary read and write;
 * with auth disabled everything else is allowed; with it enabled a connection without a principal is refused
 * ({@code UNAUTHENTICATED}), cluster layout, replica status and cut requests are allowed to every principal, and
 * each key a request reads needs {@code read} (or {@code readwrite}) and each key it writes needs {@code readwrite}
 * on a prefix of it, through one of the principal's roles ({@code PERMISSION_DENIED} naming the key and principal).
 */
final class AccessRules {
    private AccessRules() {}

    /** Null if the rules of {@code table} let {@code user} (null: none) make {@code request}, else the refusal. */
    static @Nullable ErrorReply check(AuthTable table, @Nullable String user, ClientRequest request) {
        long requestId = request.requestId();
        for (KeyRange range : rangesOf(request)) {
            if (range.overlaps(RESERVED)) {
                return new ErrorReply(
                        requestId,
                        ErrorCode.PERMISSION_DENIED,
                        "range " + range + " overlaps the reserved prefix " + AuthTable.RESERVED_PREFIX
                                + ", which only ./duro admin reaches (the client's scans leave it out)");
            }
        }
        Bytes reserved = firstReservedKey(request);
        if (reserved != null) {
            return new ErrorReply(
                    requestId,
                    ErrorCode.PERMISSION_DENIED,
                    "key " + reserved + " is under the reserved prefix " + AuthTable.RESERVED_PREFIX
                            + ", which only ./duro admin reaches");
        }
        if (!table.enabled()) {
            return null;
        }
        if (user == null) {
            return new ErrorReply(
                    requestId,
                    ErrorCode.UNAUTHENTICATED,
                    "auth is enabled: authenticate this connection first (user name and password: ./duro ... --user"
                            + " NAME, DuroClient.builder().credentials(...); or a client certificate)");
        }
        if (request instanceof ClusterInfoRequest
                || request instanceof ReplicaStatusRequest
                || request instanceof SnapshotVectorRequest) {
            return null;
        }
        if (request instanceof ReadRequest read) {
            return need(table, user, requestId, read.key(), Permission.READ);
        }
        if (request instanceof MultiReadRequest read) {
            for (Bytes key : read.keys()) {
                ErrorReply refusal = need(table, user, requestId, key, Permission.READ);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        if (request instanceof ScanRequest scan) {
            return needRange(table, user, requestId, scan.range());
        }
        if (request instanceof CommitTransaction commit) {
            for (KeyRange range : rangesOf(commit)) {
                ErrorReply refusal = needRange(table, user, requestId, range);
                if (refusal != null) {
                    return refusal;
                }
            }
            for (CommitTransaction.Participant participant : commit.participants()) {
                for (Bytes key : participant.readSet()) {
                    ErrorReply refusal = need(table, user, requestId, key, Permission.READ);
                    if (refusal != null) {
                        return refusal;
                    }
                }
                for (Write write : participant.writeSet()) {
                    ErrorReply refusal = need(table, user, requestId, write.key(), Permission.READWRITE);
                    if (refusal != null) {
                        return refusal;
                    }
                }
            }
            return null;
        }
        // Anything else (a snapshot fetch is a peer's, served before this) is not a client's to make.
        return table.isRoot(user)
                ? null
                : new ErrorReply(
                        requestId, ErrorCode.PERMISSION_DENIED, "user '" + user + "' may not send " + request.type());
    }

    /**
     * The first key {@code request} reads or writes under the reserved prefix, or null. Walks the request's own
     * lists: every commit passes here, auth on or off, so nothing is copied.
     */
    private static @Nullable Bytes firstReservedKey(ClientRequest request) {
        if (request instanceof ReadRequest read) {
            return AuthTable.isReserved(read.key()) ? read.key() : null;
        }
        if (request instanceof MultiReadRequest read) {
            return firstReserved(read.keys());
        }
        if (request instanceof CommitTransaction commit) {
            for (CommitTransaction.Participant participant : commit.participants()) {
                Bytes read = firstReserved(participant.readSet());
                if (read != null) {
                    return read;
                }
                for (Write write : participant.writeSet()) {
                    if (AuthTable.isReserved(write.key())) {
                        return write.key();
                    }
                }
            }
        }
        return null;
    }

    private static @Nullable Bytes firstReserved(List<Bytes> keys) {
        for (Bytes key : keys) {
            if (AuthTable.isReserved(key)) {
                return key;
            }
        }
        return null;
    }

    private static final KeyRange RESERVED = KeyRange.prefix(AuthTable.RESERVED_PREFIX);

    private static List<KeyRange> rangesOf(ClientRequest request) {
        if (request instanceof ScanRequest scan) {
            return List.of(scan.range());
        }
        if (request instanceof CommitTransaction commit) {
            List<CommitTransaction.Participant> participants = commit.participants();
            if (participants.size() == 1) {
                return participants.get(0).scannedRanges(); // the common local commit: no copy
            }
            List<KeyRange> ranges = new ArrayList<>();
            participants.forEach(participant -> ranges.addAll(participant.scannedRanges()));
            return ranges;
        }
        return List.of();
    }

    /**
     * A range is read only under one grant covering all of it: a prefix of its start whose keys reach past its
     * end. Root reads every range the reserved check let through.
     */
    private static @Nullable ErrorReply needRange(AuthTable table, String user, long requestId, KeyRange range) {
        AuthTable.User found = table.users().get(user);
        if (found != null && table.isRoot(user)) {
            return null;
        }
        if (found != null) {
            for (String role : found.roles()) {
                for (Grant grant : table.roles().getOrDefault(role, List.of())) {
                    if (grant.covers(range.from()) && reachesPast(grant.prefix(), range)) {
                        return null;
                    }
                }
            }
        }
        return new ErrorReply(
                requestId,
                ErrorCode.PERMISSION_DENIED,
                "user '" + user + "' may not scan " + range + ": no role of theirs grants read on a prefix"
                        + " holding the whole range");
    }

    private static boolean reachesPast(Bytes prefix, KeyRange range) {
        Bytes end = KeyRange.prefixEnd(prefix);
        return end == null || (range.to() != null && range.to().compareTo(end) <= 0);
    }

    private static @Nullable ErrorReply need(
            AuthTable table, String user, long requestId, Bytes key, Permission needed) {
        Permission held = table.permission(user, key);
        if (held != null && held.covers(needed)) {
            return null;
        }
        String verb = needed == Permission.READ ? "read" : "write";
        List<Grant> covering = table.grantsCovering(user, key);
        String why = covering.isEmpty()
                ? "no role of theirs "
                        + (table.rolesOf(user).isEmpty() ? "(they have none) " : table.rolesOf(user) + " ") + "grants "
                        + needed.word() + " on a prefix of it"
                : "their roles grant only " + covering;
        return new ErrorReply(
                requestId,
                ErrorCode.PERMISSION_DENIED,
                "user '" + user + "' may not " + verb + " key " + key + ": " + why);
    }
}
