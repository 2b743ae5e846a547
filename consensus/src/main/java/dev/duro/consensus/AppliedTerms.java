package dev.duro.consensus;

import java.util.Arrays;
import javax.annotation.Nullable;
import org.apache.ratis.server.protocol.TermIndex;

/**
 * The term of each log entry a replica has applied since it last started from scratch or from a snapshot, kept as
 * the index where each term began: a leader's appender asks it for the term of an entry its log has purged
 * ({@link DuroLogAppender}).
 *
 * <p>Applied entries are committed, so every replica's log agrees on their terms, and terms never decrease along the
 * log: the term of index {@code i} is that of the last recorded start at or before {@code i}. Only the newest {@link
 * #STARTS_MAX} starts are kept (a term starts once per election); an index before the oldest kept, or not yet
 * applied, has no answer rather than a guess.
 *
 * <p>The applier thread records; any thread asks. Recording costs one volatile read per entry while the term stays
 * the same.
 */
final class AppliedTerms {
    static final int STARTS_MAX = 256;

    /** Index and term of each recorded start, oldest first, in {@code [0, count)}. */
    private final long[] startIndex = new long[STARTS_MAX];

    private final long[] startTerm = new long[STARTS_MAX];
    private int count;
    /** The term of the newest start, read without the lock on the applier's hot path. */
    private volatile long lastTerm = -1;

    /**
     * Forgets everything and starts again at {@code from}, the entry a snapshot ends with ({@code null} or a negative
     * index: the replica starts empty).
     */
    synchronized void restart(@Nullable TermIndex from) {
        count = 0;
        lastTerm = -1;
        if (from != null && from.getIndex() >= 0) {
            push(from.getIndex(), from.getTerm());
        }
    }

    /** Records the entry the replica applied last; entries come in log order. */
    void applied(TermIndex entry) {
        if (entry.getTerm() != lastTerm) {
            synchronized (this) {
                push(entry.getIndex(), entry.getTerm());
            }
        }
    }

    /**
     * The term of the entry at {@code index}, or {@code null} if it is after {@code appliedIndex} (the last entry the
     * replica applied), before the last restart, or in a term older than the oldest start kept.
     */
    synchronized @Nullable TermIndex termIndexOf(long index, long appliedIndex) {
        if (count == 0 || index > appliedIndex || index < startIndex[0]) {
            return null;
        }
        int at = Arrays.binarySearch(startIndex, 0, count, index);
        int start = at >= 0 ? at : -at - 2; // the last start at or before index
        return TermIndex.valueOf(startTerm[start], index);
    }

    private void push(long index, long term) {
        if (count > 0 && index <= startIndex[count - 1]) {
            return; // replayed or out of order: the log order is the applier's, nothing new
        }
        if (count == STARTS_MAX) {
            System.arraycopy(startIndex, 1, startIndex, 0, count - 1);
            System.arraycopy(startTerm, 1, startTerm, 0, count - 1);
            count--;
        }
        startIndex[count] = index;
        startTerm[count] = term;
        count++;
        lastTerm = term;
    }
}
