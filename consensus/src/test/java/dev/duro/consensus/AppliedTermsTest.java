package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.Test;

/**
 * The terms a replica recorded while applying, which its appenders use to name an entry the leader's log purged
 * ({@link DuroLogAppender}): every answer is the log's own term, and anything not applied since the last restart,
 * or older than the kept term starts, has none.
 */
class AppliedTermsTest {
    @Test
    void knowsNothingBeforeItIsTold() {
        AppliedTerms terms = new AppliedTerms();
        assertNull(terms.termIndexOf(0, 10));
        terms.restart(null);
        assertNull(terms.termIndexOf(0, 10));
        terms.restart(TermIndex.valueOf(0, -1)); // Ratis's "nothing applied"
        assertNull(terms.termIndexOf(0, 10));
    }

    @Test
    void answersTheTermOfEachEntryAppliedSinceTheSnapshotAndNothingElse() {
        AppliedTerms terms = new AppliedTerms();
        terms.restart(TermIndex.valueOf(3, 100));
        long[] entryTerms = {3, 3, 4, 4, 6};
        for (int i = 0; i < entryTerms.length; i++) {
            terms.applied(TermIndex.valueOf(entryTerms[i], 101 + i));
        }
        long applied = 105;
        assertEquals(TermIndex.valueOf(3, 100), terms.termIndexOf(100, applied));
        assertEquals(TermIndex.valueOf(3, 102), terms.termIndexOf(102, applied));
        assertEquals(TermIndex.valueOf(4, 103), terms.termIndexOf(103, applied));
        assertEquals(TermIndex.valueOf(4, 104), terms.termIndexOf(104, applied));
        assertEquals(TermIndex.valueOf(6, 105), terms.termIndexOf(105, applied));
        assertNull(terms.termIndexOf(99, applied), "before the snapshot it started from");
        assertNull(terms.termIndexOf(106, applied), "not applied yet");
        assertNull(terms.termIndexOf(105, 104), "past the applied index it is given");

        terms.restart(TermIndex.valueOf(7, 500));
        assertNull(terms.termIndexOf(104, 500), "a snapshot loaded later forgets what came before it");
        assertEquals(TermIndex.valueOf(7, 500), terms.termIndexOf(500, 500));
    }

    @Test
    void keepsOnlyTheNewestTermStarts() {
        AppliedTerms terms = new AppliedTerms();
        int entries = AppliedTerms.STARTS_MAX + 10; // a new term at every entry
        for (int index = 0; index < entries; index++) {
            terms.applied(TermIndex.valueOf(index + 1, index));
        }
        assertNull(terms.termIndexOf(9, entries - 1), "its term's start was dropped");
        assertEquals(TermIndex.valueOf(11, 10), terms.termIndexOf(10, entries - 1));
        assertEquals(TermIndex.valueOf(entries, entries - 1), terms.termIndexOf(entries - 1, entries - 1));
    }

    @Test
    void aReplayedEntryChangesNothing() {
        AppliedTerms terms = new AppliedTerms();
        terms.restart(TermIndex.valueOf(5, 50));
        terms.applied(TermIndex.valueOf(6, 60));
        terms.applied(TermIndex.valueOf(4, 40)); // older than what it knows: ignored
        // entry 61, also of term 6, was applied too: an entry that starts no term records nothing
        assertEquals(TermIndex.valueOf(5, 59), terms.termIndexOf(59, 61));
        assertEquals(TermIndex.valueOf(6, 61), terms.termIndexOf(61, 61));
        assertNull(terms.termIndexOf(40, 61));
    }

    /** Random logs, restarts and bounds, against the log itself: every answer is the entry's term, or none. */
    @Test
    void neverAnswersATermTheLogDoesNotHave() {
        for (int seed = 0; seed < 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            List<Long> log = new ArrayList<>(); // log.get(i) is the term of entry i
            long term = 1;
            int entries = 200 + random.nextInt(2_000);
            for (int i = 0; i < entries; i++) {
                if (random.nextInt(seed % 2 == 0 ? 3 : 50) == 0) {
                    term += 1 + random.nextInt(3);
                }
                log.add(term);
            }
            AppliedTerms terms = new AppliedTerms();
            long knownFrom = -1;
            long applied = -1;
            int answered = 0;
            for (int i = 0; i < entries; i++) {
                if (random.nextInt(400) == 0) { // a snapshot loaded: it ends at entry i
                    terms.restart(TermIndex.valueOf(log.get(i), i));
                    knownFrom = i;
                } else {
                    terms.applied(TermIndex.valueOf(log.get(i), i));
                    knownFrom = knownFrom < 0 ? i : knownFrom;
                }
                applied = i;
                long asked = random.nextInt(i + 2);
                TermIndex answer = terms.termIndexOf(asked, applied);
                if (answer != null) {
                    answered++;
                    assertEquals(log.get((int) asked), answer.getTerm(), "seed " + seed + ", entry " + asked);
                    assertEquals(asked, answer.getIndex());
                }
                if (asked >= knownFrom && asked <= applied && (seed % 2 == 1 || i < AppliedTerms.STARTS_MAX)) {
                    // few starts (or not yet many): nothing dropped, so everything since the restart is known
                    assertEquals(log.get((int) asked), answer == null ? null : answer.getTerm(), "seed " + seed);
                }
            }
            assertTrue(answered > 0, "seed " + seed + " asked something it could answer");
        }
    }
}
