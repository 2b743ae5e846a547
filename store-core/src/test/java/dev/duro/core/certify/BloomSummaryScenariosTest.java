package dev.duro.core.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.AbortReason;
import dev.duro.core.Bytes;
import dev.duro.core.Write;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scenarios for transactions certified or recorded with bloom-filter readset summaries. */
class BloomSummaryScenariosTest {
    private static final int PARTITION = 0;

    /**
     * A long-running transaction with a huge readset certifies against thousands of concurrent writes. Its own
     * readset is known exactly, so checking it must not depend on a bloom filter: with one filter probed once
     * per concurrent write, 20,000 probes at a 0.1% false-positive rate would abort it almost surely.
     */
    @Test
    void hugeReadSetWithALaggingSnapshotAndNoRealConflictCommits() {
        Certifier certifier =
                new Certifier(PARTITION, CertifierSettings.exact(10_000).withBloomReadSetKeysMin(1_000));
        for (int i = 0; i < 5_000; i++) {
            List<Write> writes = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                writes.add(Write.put(Bytes.utf8("written-" + (4 * i + k)), Bytes.utf8("v")));
            }
            certifier.record(List.of(Bytes.utf8("read-" + i)), writes);
        }
        List<Bytes> readSet = new ArrayList<>();
        for (int k = 0; k < 2_000; k++) {
            readSet.add(Bytes.utf8("only-read-" + k));
        }
        assertTrue(certifier.usesBloom(readSet.size()));
        List<Write> writeSet = List.of(Write.put(Bytes.utf8("own"), Bytes.utf8("v")));
        assertNull(certifier.certify(0, readSet, writeSet, false));
        assertNull(certifier.certify(0, readSet, writeSet, true));
        certifier.record(readSet, writeSet);
        // A later global writer of one of those 2,000 keys is caught by the summary.
        AbortReason reason =
                certifier.certify(0, List.of(), List.of(Write.put(Bytes.utf8("only-read-7"), Bytes.utf8("v"))), true);
        assertEquals(AbortReason.Kind.WRITTEN_KEY_READ_CONCURRENTLY, reason.kind());
        assertEquals(5_001, reason.number());
    }

    @Test
    void realConflictWithABloomRecordedWriterNamesTheKeyExactly() {
        Certifier certifier = new Certifier(PARTITION, CertifierSettings.bloom(100));
        certifier.record(List.of(Bytes.utf8("a")), List.of(Write.put(Bytes.utf8("b"), Bytes.utf8("v"))));
        certifier.record(List.of(Bytes.utf8("c")), List.of(Write.put(Bytes.utf8("d"), Bytes.utf8("v"))));
        AbortReason reason = certifier.certify(0, List.of(Bytes.utf8("x"), Bytes.utf8("d")), List.of(), false);
        assertEquals(AbortReason.readKeyOverwritten(PARTITION, Bytes.utf8("d"), 2, false), reason);
    }

    @Test
    void globalWriteOfAKeyABloomRecordedTransactionReadIsFlaggedAsPossiblyFalse() {
        Certifier certifier = new Certifier(PARTITION, CertifierSettings.bloom(100));
        certifier.record(List.of(Bytes.utf8("a")), List.of());
        AbortReason reason =
                certifier.certify(0, List.of(), List.of(Write.put(Bytes.utf8("a"), Bytes.utf8("v"))), true);
        assertEquals(AbortReason.Kind.WRITTEN_KEY_READ_CONCURRENTLY, reason.kind());
        assertEquals(1, reason.number());
        assertTrue(reason.possibleFalsePositive(), "a summary can only say the key was maybe read");
    }
}
