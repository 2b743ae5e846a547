package dev.duro.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.duro.core.TxId;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import org.junit.jupiter.api.Test;

/** What a partition can still tell of the ids it forgot, across generations of bloom filters. */
class ForgottenIdsTest {
    @Test
    void aSnapshotAboveEverythingForgottenProvesAnIdNew() {
        ForgottenIds ids = new ForgottenIds(4);
        assertFalse(ids.mayHaveForgotten(new TxId(1, 1), 0), "nothing forgotten yet");
        ids.add(new TxId(1, 1), 10);

        assertTrue(ids.mayHaveForgotten(new TxId(1, 1), 10));
        assertFalse(ids.mayHaveForgotten(new TxId(1, 1), 11), "read above what was forgotten: never delivered then");
        assertEquals(10, ids.upTo());
    }

    @Test
    void forgottenIdsAreNeverMissedWhileTheirGenerationIsKept() {
        ForgottenIds ids = new ForgottenIds(100);
        for (int i = 1; i <= 200; i++) {
            ids.add(new TxId(7, i), i);
        }
        for (int i = 1; i <= 200; i++) {
            assertTrue(ids.mayHaveForgotten(new TxId(7, i), 0), "no false negative for " + i);
        }
        int falsePositives = 0;
        for (int i = 1; i <= 1_000; i++) {
            if (ids.mayHaveForgotten(new TxId(8, i), 0)) {
                falsePositives++;
            }
        }
        assertTrue(falsePositives < 60, "about 1% of new ids look forgotten, two filters: " + falsePositives);
    }

    @Test
    void onceAGenerationIsDroppedEverySnapshotItCoveredIsAmbiguous() {
        ForgottenIds ids = new ForgottenIds(2);
        for (int i = 1; i <= 6; i++) {
            ids.add(new TxId(7, i), 10 * i); // generations {1,2} {3,4} {5,6}: the first is dropped
        }
        TxId neverDelivered = new TxId(9, 9);
        assertTrue(ids.mayHaveForgotten(neverDelivered, 20), "at or below the dropped generation's counters");
        assertTrue(ids.mayHaveForgotten(new TxId(7, 3), 25));
        assertFalse(ids.mayHaveForgotten(new TxId(7, 1), 61), "above everything forgotten");
    }

    @Test
    void itSurvivesASnapshot() {
        ForgottenIds ids = new ForgottenIds(3);
        for (int i = 1; i <= 7; i++) {
            ids.add(new TxId(7, i), i);
        }
        ByteWriter out = new ByteWriter(1 << 10);
        ids.writeTo(out);
        byte[] bytes = out.toByteArray();

        ForgottenIds restored = ForgottenIds.readFrom(new ByteReader(bytes), 1);
        ByteWriter again = new ByteWriter(1 << 10);
        restored.writeTo(again);

        assertArrayEquals(bytes, again.toByteArray());
        for (int i = 1; i <= 7; i++) {
            assertEquals(ids.mayHaveForgotten(new TxId(7, i), i), restored.mayHaveForgotten(new TxId(7, i), i));
        }
    }
}
