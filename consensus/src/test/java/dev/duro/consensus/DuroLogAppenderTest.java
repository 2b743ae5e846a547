package dev.duro.consensus;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When the leader's appender tells a follower its commit index with an empty append ({@link DuroLogAppender}). */
class DuroLogAppenderTest {
    @Test
    void aCommitTheFollowerLacksIsPushedOnce() {
        assertTrue(DuroLogAppender.commitToPush(10, 9, 9, false), "the follower lags and was not told");
        assertFalse(DuroLogAppender.commitToPush(10, 9, 10, false), "already told, the answer is on its way");
        assertTrue(DuroLogAppender.commitToPush(11, 9, 10, false), "a further advance is told too");
    }

    @Test
    void nothingIsPushedToAFollowerThatKnowsOrHasEntriesComing() {
        assertFalse(DuroLogAppender.commitToPush(10, 10, 9, false), "the follower knows the commit index");
        assertFalse(DuroLogAppender.commitToPush(10, 12, 9, false), "a new leader behind its followers");
        assertFalse(DuroLogAppender.commitToPush(10, 9, 9, true), "entries on their way carry it");
    }
}
