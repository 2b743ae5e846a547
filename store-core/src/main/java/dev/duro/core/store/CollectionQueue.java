package dev.duro.core.store;

import dev.duro.core.Bytes;
import java.util.ArrayDeque;

/**
 * The store's queue of {@code (chain, version)} entries awaiting collection, in install order: a deque of
 * fixed-size blocks of parallel arrays, so queueing a version allocates nothing but a block per
 * {@link #BLOCK_SIZE} entries.
 *
 * <p>An entry is written once, when queued (entries go only to places never written before, even when the queue is
 * empty), and a block is dropped whole once its last place is taken, never reused.
 * So an {@linkplain #freeze image} of the queue is its blocks' references: the entries it holds never change, even
 * after they leave the queue, and another thread may read them.
 */
final class CollectionQueue {
    static final int BLOCK_SIZE = 1024;

    private static final class Block {
        final VersionChain[] chains = new VersionChain[BLOCK_SIZE];
        final long[] versions = new long[BLOCK_SIZE];
    }

    private final ArrayDeque<Block> blocks = new ArrayDeque<>();
    /** The first entry's index in the first block. */
    private int head;
    /** The next entry's index in the last block. */
    private int tail;

    private int size;

    /** The entries queued at one moment, oldest first: {@code size} of them from place {@code head} of the blocks. */
    record Image(Block[] blocks, int head, int size) {
        Bytes keyAt(int index) {
            int at = head + index;
            return blocks[at / BLOCK_SIZE].chains[at % BLOCK_SIZE].key;
        }

        long versionAt(int index) {
            int at = head + index;
            return blocks[at / BLOCK_SIZE].versions[at % BLOCK_SIZE];
        }
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void addLast(VersionChain chain, long version) {
        Block last = blocks.peekLast();
        if (last == null || tail == BLOCK_SIZE) {
            last = new Block();
            blocks.addLast(last);
            tail = 0;
        }
        last.chains[tail] = chain;
        last.versions[tail] = version;
        tail++;
        size++;
    }

    private Block first() {
        if (size == 0) {
            throw new IllegalStateException("the collection queue is empty");
        }
        return blocks.getFirst();
    }

    /** The version of the oldest entry; the queue must not be empty. */
    long firstVersion() {
        return first().versions[head];
    }

    VersionChain firstChain() {
        return first().chains[head];
    }

    void removeFirst() {
        first();
        head++;
        size--;
        if (head == BLOCK_SIZE) {
            blocks.removeFirst();
            head = 0;
        }
    }

    /** Touches the chains of the first entries at or below {@code horizon}, at most {@code limit} of them. */
    int touchDue(long horizon, int limit) {
        if (size == 0) {
            return 0;
        }
        int sink = 0;
        Block block = blocks.getFirst();
        int end = Math.min(BLOCK_SIZE, head + Math.min(size, limit)); // the first block only: enough to read ahead
        for (int i = head; i < end && block.versions[i] <= horizon; i++) {
            sink += block.chains[i].touch();
        }
        return sink;
    }

    /** The entries queued now: a reference per block. */
    Image freeze() {
        return new Image(blocks.toArray(new Block[0]), head, size);
    }
}
