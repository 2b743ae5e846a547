package dev.duro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.TxId;
import dev.duro.core.Write;
import dev.duro.core.wire.CommitTransaction;
import dev.duro.core.wire.ErrorCode;
import dev.duro.core.wire.ErrorReply;
import dev.duro.core.wire.ReadRequest;
import dev.duro.core.wire.ScanRequest;
import dev.duro.server.auth.AuthTable;
import dev.duro.server.auth.Permission;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The auth rules for scanned ranges (docs/auth.md, docs/ranges.md): the reserved keys, and one grant per range. */
class AccessControlScanTest {
    private static final AuthTable TABLE = AuthTable.EMPTY
            .withUser(AuthTable.ROOT, null)
            .withUserRole(AuthTable.ROOT, AuthTable.ROOT, true)
            .withUser("ana", null)
            .withRole("readers")
            .withGrant("readers", Permission.READ, Bytes.utf8("user/"))
            .withUserRole("ana", "readers", true)
            .withEnabled(true);

    private static ScanRequest scan(String from, String to) {
        return new ScanRequest(
                1,
                0,
                ReadRequest.LATEST,
                0,
                new KeyRange(Bytes.utf8(from), to == null ? null : Bytes.utf8(to)),
                10,
                false);
    }

    private static CommitTransaction commitScanning(KeyRange range) {
        return new CommitTransaction(
                1,
                new TxId(1, 1),
                List.of(new CommitTransaction.Participant(
                        0, 3, List.of(), List.of(Write.put(Bytes.utf8("user/x"), Bytes.utf8("1"))), List.of(range))));
    }

    @Test
    void aScanInsideAGrantedPrefixIsAllowed() {
        assertNull(AccessRules.check(TABLE, "ana", scan("user/a", "user/z")));
        assertNull(AccessRules.check(TABLE, "ana", scan("user/", "user0"))); // the whole prefix
        assertNull(AccessRules.check(TABLE, AuthTable.ROOT, scan("a", null)));
    }

    @Test
    void aScanReachingPastTheGrantedPrefixIsRefusedNamingTheRange() {
        ErrorReply refused = AccessRules.check(TABLE, "ana", scan("user/a", "v"));
        assertEquals(ErrorCode.PERMISSION_DENIED, refused.code());
        assertTrue(refused.message().contains("may not scan [\"user/a\", \"v\")"), refused.message());
        assertEquals(
                ErrorCode.PERMISSION_DENIED,
                AccessRules.check(TABLE, "ana", scan("user/a", null)).code());
        assertEquals(
                ErrorCode.UNAUTHENTICATED,
                AccessRules.check(TABLE, null, scan("user/a", "user/b")).code());
    }

    @Test
    void aRangeOverTheReservedKeysIsRefusedToEveryoneEvenWithAuthDisabled() {
        for (AuthTable table : List.of(TABLE, AuthTable.EMPTY)) {
            ErrorReply refused = AccessRules.check(table, AuthTable.ROOT, scan("", null));
            assertEquals(ErrorCode.PERMISSION_DENIED, refused.code());
            assertTrue(refused.message().contains("reserved prefix"), refused.message());
        }
        assertNull(AccessRules.check(AuthTable.EMPTY, null, scan("a", null)));
    }

    @Test
    void aCommitsScannedRangesNeedReadGrantsToo() {
        AuthTable writers = TABLE.withRole("writers")
                .withGrant("writers", Permission.READWRITE, Bytes.utf8("user/x"))
                .withUserRole("ana", "writers", true);
        assertNull(AccessRules.check(
                writers, "ana", commitScanning(new KeyRange(Bytes.utf8("user/a"), Bytes.utf8("user/b")))));
        ErrorReply refused = AccessRules.check(writers, "ana", commitScanning(KeyRange.prefix(Bytes.utf8("admin/"))));
        assertEquals(ErrorCode.PERMISSION_DENIED, refused.code());
        ErrorReply reserved = AccessRules.check(AuthTable.EMPTY, null, commitScanning(KeyRange.ALL));
        assertEquals(ErrorCode.PERMISSION_DENIED, reserved.code());
    }
}
