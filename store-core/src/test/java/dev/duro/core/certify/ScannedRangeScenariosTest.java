package dev.duro.core.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import dev.duro.core.Write;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Phantoms: inserts and deletes inside a scanned range abort the scanner, in both representations. */
class ScannedRangeScenariosTest {
    private static final KeyRange USERS = KeyRange.prefix(Bytes.utf8("user/"));

    private static Bytes key(String text) {
        return Bytes.utf8(text);
    }

    private static List<Write> put(String key) {
        return List.of(Write.put(key(key), key("v")));
    }

    @Test
    void anInsertIntoAScannedPrefixAfterTheSnapshotAbortsTheScanner() {
        Certifier certifier = new Certifier(3, CertifierSettings.exact(16));
        certifier.record(List.of(), put("user/a"));
        long snapshot = certifier.pendingSnapshotCounter();
        certifier.record(List.of(), put("user/b")); // the phantom: a key the scan did not see
        certifier.record(List.of(), put("zebra")); // outside the range

        AbortReason reason = certifier.certify(snapshot, List.of(), put("count"), List.of(USERS), false);
        assertEquals(AbortReason.readKeyOverwritten(3, key("user/b"), 2, false), reason);
        assertNull(certifier.certify(2, List.of(), put("count"), List.of(USERS), false), "scanned after the insert");
        assertNull(certifier.certify(
                snapshot, List.of(), put("count"), List.of(new KeyRange(key("user/c"), key("user/z"))), false));
    }

    @Test
    void aDeleteInsideAScannedRangeAbortsTheScannerAndOpenEndedRangesReachTheEnd() {
        Certifier certifier = new Certifier(3, CertifierSettings.exact(16));
        certifier.record(List.of(), put("user/a"));
        long snapshot = certifier.pendingSnapshotCounter();
        certifier.record(List.of(), List.of(Write.delete(key("user/a"))));
        assertNotNull(certifier.certify(snapshot, List.of(), List.of(), List.of(USERS), false));
        assertNotNull(certifier.certify(snapshot, List.of(), List.of(), List.of(KeyRange.ALL), false));
        assertNull(certifier.certify(snapshot, List.of(), List.of(), List.of(new KeyRange(key("v"), null)), false));
    }

    @Test
    void aRangeOlderThanTheWindowIsTooOldLikeAPointRead() {
        Certifier certifier = new Certifier(3, CertifierSettings.exact(2));
        for (int i = 0; i < 5; i++) {
            certifier.record(List.of(), put("user/" + i));
        }
        AbortReason reason = certifier.certify(1, List.of(), List.of(), List.of(USERS), false);
        assertEquals(AbortReason.Kind.SNAPSHOT_TOO_OLD, reason.kind());
        assertTrue(certifier.orderedWrittenKeys() <= 2, "the ordered index holds only the window's writes");
    }

    /** S-DUR §IV-C with a range: a global that writes into a range a concurrent transaction scanned must abort. */
    @Test
    void aGlobalWritingIntoARangeScannedConcurrentlyFailsTheStrongerTest() {
        Certifier certifier = new Certifier(3, CertifierSettings.exact(16));
        long snapshot = certifier.pendingSnapshotCounter();
        certifier.record(List.of(), put("audit"), List.of(USERS)); // counted the users, wrote the count
        AbortReason reason = certifier.certify(snapshot, List.of(), put("user/new"), List.of(), true);
        assertEquals(AbortReason.writtenKeyReadConcurrently(3, key("user/new"), 1, false), reason);
        assertNull(certifier.certify(snapshot, List.of(), put("user/new"), List.of(), false), "a local may follow");
        assertNull(certifier.certify(snapshot, List.of(), put("other"), List.of(), true));
    }

    /** A summarised scanner keeps the span of its ranges: never a missed phantom, maybe an extra abort. */
    @Test
    void aSummarisedScannerIsCheckedAgainstTheSpanOfItsRanges() {
        Certifier certifier = new Certifier(3, CertifierSettings.bloom(16));
        List<KeyRange> ranges = List.of(USERS, KeyRange.prefix(key("vendor/")));
        certifier.record(List.of(), put("audit"), ranges);
        AbortReason inRange = certifier.certify(0, List.of(), put("vendor/x"), List.of(), true);
        assertNotNull(inRange);
        assertTrue(inRange.possibleFalsePositive());
        AbortReason inGap = certifier.certify(0, List.of(), put("user0"), List.of(), true); // between the ranges
        assertNotNull(inGap, "the span covers the gap between the ranges");
        assertTrue(inGap.possibleFalsePositive());
        Certifier restored = CertifierAgainstNaiveTest.roundTrip(certifier);
        assertEquals(inRange, restored.certify(0, List.of(), put("vendor/x"), List.of(), true));
    }
}
