package dev.duro.core.engine;

import dev.duro.core.Bytes;
import dev.duro.core.TxId;
import dev.duro.core.codec.ByteReader;
import dev.duro.core.codec.ByteWriter;
import dev.duro.core.codec.MalformedInputException;
import javax.annotation.Nullable;

/**
 * What a partition remembers of the ids whose outcome it forgot: enough to tell, for a repeated commit request or
 * a late abort request, whether the id <em>may</em> have been delivered here before (docs/window-safety.md).
 *
 * <p>Two facts, both functions of the log, so every replica answers alike:
 *
 * <ol>
 *   <li>{@link #upTo()}: {@code PSC} as it was just before the newest forgotten delivery. A transaction reads a
 *       snapshot no newer than {@code PSC} at any later point of the log, so one whose snapshot here is above it
 *       was certainly never delivered in the forgotten part.
 *   <li>Bloom filters of the forgotten ids, in two generations of {@link #generationCapacity} ids (at least
 *       {@link #GENERATION_CAPACITY_MIN}); no false negatives, so "not in a filter" proves an id is new. When the
 *       older generation is dropped, every snapshot at or below the counters it covered becomes ambiguous
 *       ({@link #droppedUpTo}).
 * </ol>
 *
 * <p>An ambiguous id is answered as unknown (a commit) or left without a tombstone (an abort request); a false
 * positive (about 1 in 100) costs the same, never a wrong decision.
 */
final class ForgottenIds {
    static final double FALSE_POSITIVE_RATE = 0.01;

    private final int generationCapacity;
    /** Created when the first id is forgotten: a partition that never forgets pays nothing. */
    private @Nullable TxIdFilter current;

    private int currentCount;
    private @Nullable TxIdFilter previous;
    /** The highest {@code PSC}-before of the ids in {@link #previous}; -1 if none. */
    private long previousUpTo = -1;
    /** The highest {@code PSC}-before of any id forgotten so far; -1 while none was. */
    private long upTo = -1;
    /** The highest {@code PSC}-before of the ids in generations already dropped; -1 while none was. */
    private long droppedUpTo = -1;

    /**
     * The fewest ids a generation holds. A late abort request becomes ambiguous once its target has forgotten two
     * generations of ids since the transaction read it; at 65,536 ids each that takes minutes of load even with a
     * tiny {@code outcomes-retained}, for about 80 KB a generation (created only once something is forgotten).
     */
    static final int GENERATION_CAPACITY_MIN = 1 << 16;

    /** Both generations together cover at least four times the outcomes a partition retains. */
    static ForgottenIds forOutcomesRetained(int outcomesRetained) {
        return new ForgottenIds((int) Math.min(1 << 24, Math.max(GENERATION_CAPACITY_MIN, 2L * outcomesRetained)));
    }

    ForgottenIds(int generationCapacity) {
        if (generationCapacity < 1) {
            throw new IllegalArgumentException("a generation holds at least one id: " + generationCapacity);
        }
        this.generationCapacity = generationCapacity;
    }

    private TxIdFilter newFilter() {
        return TxIdFilter.create(generationCapacity, FALSE_POSITIVE_RATE);
    }

    int generationCapacity() {
        return generationCapacity;
    }

    /** {@code PSC} just before the newest delivery whose outcome was forgotten; -1 while none was. */
    long upTo() {
        return upTo;
    }

    /** Forgets {@code tid}, first delivered when {@code PSC} was {@code pscBefore}. */
    void add(TxId tid, long pscBefore) {
        if (current == null) {
            current = newFilter();
        } else if (currentCount >= generationCapacity) {
            if (previous != null) {
                droppedUpTo = Math.max(droppedUpTo, previousUpTo);
            }
            previous = current;
            previousUpTo = upTo;
            current = newFilter();
            currentCount = 0;
        }
        current.put(tid);
        currentCount++;
        upTo = Math.max(upTo, pscBefore);
    }

    /** Whether {@code tid}, which read this partition at {@code snapshot}, may have been delivered and forgotten. */
    boolean mayHaveForgotten(TxId tid, long snapshot) {
        if (snapshot > upTo) {
            return false;
        }
        TxIdFilter newer = current; // not null: something was forgotten at or above the snapshot
        return snapshot <= droppedUpTo
                || (newer != null && newer.mightContain(tid))
                || (previous != null && previous.mightContain(tid));
    }

    /**
     * A copy to write later, from any thread ({@link #writeTo}), while this one goes on forgetting: the older filter
     * is shared (nothing is added to it once it is older), the newer one copied.
     */
    ForgottenIds frozenCopy() {
        ForgottenIds copy = new ForgottenIds(generationCapacity);
        copy.current = current == null ? null : current.copy();
        copy.currentCount = currentCount;
        copy.previous = previous;
        copy.previousUpTo = previousUpTo;
        copy.upTo = upTo;
        copy.droppedUpTo = droppedUpTo;
        return copy;
    }

    void writeTo(ByteWriter out) {
        out.writeLong(upTo).writeLong(previousUpTo).writeLong(droppedUpTo);
        out.writeInt(currentCount);
        out.writeBoolean(current != null);
        if (current != null) {
            writeFilter(out, current);
        }
        out.writeBoolean(previous != null);
        if (previous != null) {
            writeFilter(out, previous);
        }
    }

    static ForgottenIds readFrom(ByteReader in, int outcomesRetained) {
        ForgottenIds ids = forOutcomesRetained(outcomesRetained);
        ids.upTo = in.readLong();
        ids.previousUpTo = in.readLong();
        ids.droppedUpTo = in.readLong();
        ids.currentCount = in.readInt();
        if (ids.upTo < -1 || ids.previousUpTo < -1 || ids.droppedUpTo < -1) {
            throw new MalformedInputException("forgotten-id counters below -1");
        }
        if (ids.currentCount < 0) {
            throw new MalformedInputException("forgotten-id generation holds " + ids.currentCount + " ids");
        }
        // A count above this node's capacity (engine.outcomes-retained was lowered) just rotates at the next id.
        ids.current = in.readBoolean() ? readFilter(in) : null;
        ids.previous = in.readBoolean() ? readFilter(in) : null;
        return ids;
    }

    private static void writeFilter(ByteWriter out, TxIdFilter filter) {
        out.writeBytes(Bytes.wrap(filter.toBytes()));
    }

    private static TxIdFilter readFilter(ByteReader in) {
        return TxIdFilter.fromBytes(in.readBytes().unsafeArray());
    }
}
