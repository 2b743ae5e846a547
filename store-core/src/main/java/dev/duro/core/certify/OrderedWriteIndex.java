package dev.duro.core.certify;

import dev.duro.core.Bytes;
import dev.duro.core.KeyRange;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The written keys of the certification window in key order, each with the number of the newest retained
 * transaction that wrote it: what a scanned range is certified against, as FoundationDB's resolver keeps its
 * conflict ranges (docs/ranges.md). A range conflicts with the window's writes after a snapshot {@code st} iff
 * some key in it maps to a number above {@code st}.
 *
 * <p>A treap (a binary search tree by key, a heap by a priority per node) whose nodes also hold the largest number
 * in their subtree, so a range query skips every subtree written only at or below the snapshot: finding the smallest
 * key of a range written after it costs {@code O(log n)} expected, however many older writes the range holds. A
 * sorted map walked key by key would cost a step per such write. The priorities come from a counter through a
 * fixed mixing function: the shape is deterministic, and nothing observable depends on it anyway.
 *
 * <p>Filled lazily, by the certifier, from the window it already keeps ({@link Certifier}): only a transaction that
 * scanned a range needs it, so a partition whose transactions never scan pays nothing for it on the commit path,
 * and one that does pays an insertion per written key once. Entries whose writer left the window are removed when
 * it leaves (unless a newer writer refreshed them), so the index holds at most the distinct keys the window wrote.
 * Whether or not it is filled is invisible in the decisions: the answer for a range is the same either way.
 *
 * <p>Recursion depth is the treap's depth, about {@code 2 ln n} expected (about 30 for a million keys).
 */
final class OrderedWriteIndex {
    private static final class Node {
        final Bytes key;
        final long priority;
        long number;
        /** The largest {@link #number} in this subtree. */
        long max;

        @Nullable
        Node left;

        @Nullable
        Node right;

        Node(Bytes key, long number, long priority) {
            this.key = key;
            this.number = number;
            this.max = number;
            this.priority = priority;
        }
    }

    /** The key and newest writer a range query found. */
    record Written(Bytes key, long number) {}

    private @Nullable Node root;
    private int size;
    private long inserted;

    int size() {
        return size;
    }

    /** Adds the writes of transaction {@code number}, newer than every transaction added before. */
    void add(Bytes[] keys, long number) {
        for (Bytes key : keys) {
            root = put(root, key, number);
        }
    }

    /** Removes the keys transaction {@code number}, which leaves the window, wrote and no newer one rewrote. */
    void evict(Bytes[] keys, long number) {
        for (Bytes key : keys) {
            Node node = find(key);
            if (node != null && node.number <= number) {
                root = remove(root, key);
            }
        }
    }

    /** The smallest key of {@code range} written after {@code snapshot}, with its newest writer, or null. */
    @Nullable
    Written firstWrittenAfter(KeyRange range, long snapshot) {
        Node found = first(root, range, snapshot);
        return found == null ? null : new Written(found.key, found.number);
    }

    private static @Nullable Node first(@Nullable Node node, KeyRange range, long snapshot) {
        if (node == null || node.max <= snapshot) {
            return null;
        }
        if (node.key.compareTo(range.from()) < 0) {
            return first(node.right, range, snapshot);
        }
        if (range.to() != null && node.key.compareTo(range.to()) >= 0) {
            return first(node.left, range, snapshot);
        }
        Node left = first(node.left, range, snapshot);
        if (left != null) {
            return left;
        }
        return node.number > snapshot ? node : first(node.right, range, snapshot);
    }

    private @Nullable Node find(Bytes key) {
        Node node = root;
        while (node != null) {
            int order = key.compareTo(node.key);
            if (order == 0) {
                return node;
            }
            node = order < 0 ? node.left : node.right;
        }
        return null;
    }

    private Node put(@Nullable Node node, Bytes key, long number) {
        if (node == null) {
            size++;
            return new Node(key, number, mix(++inserted));
        }
        int order = key.compareTo(node.key);
        if (order == 0) {
            node.number = number; // numbers only grow, so the maxima above stay right
            node.max = Math.max(node.max, number);
            return node;
        }
        if (order < 0) {
            node.left = put(node.left, key, number);
            if (node.left.priority > node.priority) {
                return rotateRight(node);
            }
        } else {
            node.right = put(node.right, key, number);
            if (node.right.priority > node.priority) {
                return rotateLeft(node);
            }
        }
        update(node);
        return node;
    }

    private @Nullable Node remove(@Nullable Node node, Bytes key) {
        if (node == null) {
            return null;
        }
        int order = key.compareTo(node.key);
        if (order == 0) {
            size--;
            return merge(node.left, node.right);
        }
        if (order < 0) {
            node.left = remove(node.left, key);
        } else {
            node.right = remove(node.right, key);
        }
        update(node);
        return node;
    }

    /** Joins two treaps whose keys are all below (first) and above (second) each other. */
    private static @Nullable Node merge(@Nullable Node low, @Nullable Node high) {
        if (low == null) {
            return high;
        }
        if (high == null) {
            return low;
        }
        if (low.priority > high.priority) {
            low.right = merge(low.right, high);
            update(low);
            return low;
        }
        high.left = merge(low, high.left);
        update(high);
        return high;
    }

    private static Node rotateRight(Node node) {
        Node pivot = Objects.requireNonNull(node.left, "a right rotation's pivot");
        node.left = pivot.right;
        pivot.right = node;
        update(node);
        update(pivot);
        return pivot;
    }

    private static Node rotateLeft(Node node) {
        Node pivot = Objects.requireNonNull(node.right, "a left rotation's pivot");
        node.right = pivot.left;
        pivot.left = node;
        update(node);
        update(pivot);
        return pivot;
    }

    private static void update(Node node) {
        long max = node.number;
        if (node.left != null) {
            max = Math.max(max, node.left.max);
        }
        if (node.right != null) {
            max = Math.max(max, node.right.max);
        }
        node.max = max;
    }

    /** splitmix64's finaliser: spreads consecutive counters over the whole range of priorities. */
    private static long mix(long counter) {
        long z = counter * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
